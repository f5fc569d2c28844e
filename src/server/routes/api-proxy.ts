import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MAX_BODY_BYTES } from '../../shared/spec-limits';
import { proxyApiRequest, type ProxyOptions, type Upstream } from '../api-proxy';
import type { KeyGovernor } from '../governor/key-governor';
import { gzipByCall } from '../gzip-reply';

// The API's deletions take listings off sale (and webhooks off the seller's account).
const PROXIED = [
  { method: ['GET', 'HEAD'], access: 'viewer' },
  { method: ['POST', 'PUT', 'PATCH'], access: 'editor' },
  { method: ['DELETE'], access: 'owner', action: 'deactivate listings' },
] as const;

/** `/api/*`: the API through the key, its turn from the governor, the body forwarded as bytes. */
export async function apiProxyRoutes(
  app: FastifyInstance,
  deps: { upstream: Upstream; governor: KeyGovernor | undefined; proxy: ProxyOptions },
) {
  await gzipByCall(app);
  // Any content type, as sent; past the spec's bound Fastify answers 413 `body_too_large`.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  // Who is asking, and whose share of the governor the call takes. The path goes as sent: a
  // spelling that only decodes into `/api/...` is answered there as not a versioned API path.
  const handler = (request: FastifyRequest, reply: FastifyReply) => {
    const { actor, session } = request.admission;
    const options = { ...deps.proxy, actor, session: session?.idHash };
    return proxyApiRequest(request, reply, deps.upstream, deps.governor, options);
  };
  for (const url of ['/api', '/api/*']) {
    for (const { method, ...config } of PROXIED) {
      app.route({ method: [...method], url, config, bodyLimit: MAX_BODY_BYTES, handler });
    }
  }
}
