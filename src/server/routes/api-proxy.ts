import type { FastifyInstance } from 'fastify';
import { proxyApiRequest, type ProxyOptions, type Upstream } from '../api-proxy';
import type { KeyGovernor } from '../governor/key-governor';
import { rawReply } from '../plugins/raw-reply';
import { unreadBodies } from '../plugins/unread-bodies';

// The API's deletions take listings off sale (and webhooks off the seller's account).
const PROXIED = [
  { method: ['GET', 'HEAD'], access: 'viewer' },
  { method: ['POST', 'PUT', 'PATCH'], access: 'editor' },
  { method: ['DELETE'], access: 'owner', action: 'deactivate listings' },
] as const;

/** `/api/*`: the API through the key, on the raw response (it streams, paces and bounds bodies). */
export async function apiProxyRoutes(
  app: FastifyInstance,
  deps: { upstream: Upstream; governor: KeyGovernor | undefined; proxy: ProxyOptions },
) {
  unreadBodies(app);
  // Who is asking, and whose share of the governor the call takes. The path goes as sent: a
  // spelling that only decodes into `/api/...` is answered there as not a versioned API path.
  const handler = rawReply((request, reply) => {
    const { actor, session } = request.admission;
    const options = { ...deps.proxy, actor, session: session?.idHash };
    return proxyApiRequest(request.raw, reply.raw, deps.upstream, deps.governor, options);
  });
  for (const url of ['/api', '/api/*']) {
    for (const { method, ...config } of PROXIED) {
      app.route({ method: [...method], url, config, handler });
    }
  }
}
