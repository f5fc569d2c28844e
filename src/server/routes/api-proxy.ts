import type { FastifyInstance, FastifyRequest } from 'fastify';
import { proxyApiRequest, type ProxyOptions, type Upstream } from '../api-proxy';
import type { KeyGovernor } from '../governor/key-governor';
import { rawReply } from '../plugins/raw-reply';
import { unreadBodies } from '../plugins/unread-bodies';

export interface ApiProxyRouteDeps {
  upstream: Upstream;
  governor: KeyGovernor | undefined;
  proxy: ProxyOptions;
}

/** Who may call the API through the proxy, by method. */
const PROXIED = [
  { method: ['GET', 'HEAD'], access: 'viewer' },
  { method: ['POST', 'PUT', 'PATCH'], access: 'editor' },
  // The API's deletions take listings off sale (and webhooks off the seller's account).
  { method: ['DELETE'], access: 'owner', action: 'deactivate listings' },
] as const;

/**
 * `/api/*`: the marketplace's API through the key, answered on the raw response (it streams,
 * paces and bounds bodies itself, so bodies are left unread here).
 */
export async function apiProxyRoutes(app: FastifyInstance, deps: ApiProxyRouteDeps) {
  unreadBodies(app);
  // Who is asking, and whose share of the governor the call takes (see governor/).
  const callerOf = (request: FastifyRequest): ProxyOptions => {
    const { actor, session } = request.admission;
    return { ...deps.proxy, actor, session: session?.idHash };
  };
  // The proxy forwards the path as sent: a spelling that only decodes into `/api/...` is
  // answered there as not a versioned API path.
  const handler = rawReply((request, reply) =>
    proxyApiRequest(request.raw, reply.raw, deps.upstream, deps.governor, callerOf(request)),
  );
  for (const url of ['/api', '/api/*']) {
    for (const { method, ...config } of PROXIED) {
      app.route({ method: [...method], url, config, handler });
    }
  }
}
