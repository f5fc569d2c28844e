import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { proxyApiRequest, sendJson, type ProxyOptions, type Upstream } from '../api-proxy';
import { streamWalk, WALK_PATH } from '../walk-stream';
import type { ServerHub } from '../hub/server-hub';
import { serveActivity } from '../activity/activity-routes';
import type { ActivityStore } from '../activity/activity-store';
import { admissionOf } from './sign-in-gate';
import { pathnameOf } from './request-guard';

export interface ApiRouteDeps {
  upstream: Upstream;
  hub: ServerHub;
  proxy: ProxyOptions;
  activity: ActivityStore | undefined;
}

/** For a container's or a monitor's health check: open, and tells nothing but that it answers. */
export const HEALTH_PATH = '/healthz';

/**
 * The routes that answer on the raw response: the API proxy, the streamed walk and the hub (event
 * stream, webhook receiver, activity). Bodies are left unread for them (the proxy forwards them
 * bounded, the receiver checks a signature over the exact bytes).
 */
export async function apiRoutes(app: FastifyInstance, deps: ApiRouteDeps): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));

  // The router matches decoded paths (`/%61pi/...` as `/api/...`); the guard and the gate judged
  // the path as sent, so a path that only decodes into a route is not that route's.
  const raw =
    (prefix: string, serve: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>) =>
    async (request: FastifyRequest, reply: FastifyReply) => {
      if (!pathnameOf(request).startsWith(prefix)) return reply.callNotFound();
      reply.hijack();
      try {
        await serve(request, reply);
      } catch (error) {
        // Fastify no longer answers for a hijacked reply: an error still ends it, and is logged.
        request.log.error({ err: error }, 'A request failed');
        if (!reply.raw.headersSent) sendJson(reply.raw, 500, 'internal_error', 'Internal error.');
        else reply.raw.destroy();
      }
    };

  app.get(HEALTH_PATH, async (_request, reply) =>
    reply.header('cache-control', 'no-store').type('text/plain; charset=utf-8').send('ok\n'),
  );

  // Who is asking, and whose share of the governor the call takes (see governor/).
  const callerOf = (request: FastifyRequest): ProxyOptions => {
    const { actor, session } = admissionOf(request.raw);
    return { ...deps.proxy, actor, session: session?.idHash };
  };
  const proxy = raw('/api', (request, reply) =>
    proxyApiRequest(request.raw, reply.raw, deps.upstream, deps.hub.governor, callerOf(request)),
  );
  app.all('/api', proxy);
  app.all('/api/*', proxy);

  app.get(
    WALK_PATH,
    raw(WALK_PATH, (request, reply) =>
      streamWalk(request.raw, reply.raw, deps.upstream, deps.hub.governor, callerOf(request)),
    ),
  );

  app.all(
    '/hub/*',
    raw('/hub/', async (request, reply) => {
      const pathname = pathnameOf(request);
      if (serveActivity(request.raw, reply.raw, pathname, deps.activity)) return;
      const session = admissionOf(request.raw).session?.idHash;
      if (await deps.hub.handle(request.raw, reply.raw, pathname, session)) return;
      sendJson(reply.raw, 404, 'not_found', 'Nothing here.');
    }),
  );
}
