import type { FastifyInstance, FastifyRequest } from 'fastify';
import { proxyApiRequest, sendJson, type ProxyOptions, type Upstream } from '../api-proxy';
import { HUB_PATHS, type ServerHub } from '../hub/server-hub';
import { ACTIVITY_PATHS, serveActivity } from '../activity/activity-routes';
import type { ActivityStore } from '../activity/activity-store';
import { admissionOf } from './sign-in-gate';
import { rawReply } from './raw-reply';

export interface ApiRouteDeps {
  upstream: Upstream;
  hub: ServerHub;
  proxy: ProxyOptions;
  activity: ActivityStore | undefined;
}

/** For a container's or a monitor's health check: open, and tells nothing but that it answers. */
export const HEALTH_PATH = '/healthz';

/**
 * The routes that answer on the raw response: the API proxy and the hub (event stream, webhook
 * receiver, activity). Bodies are left unread for them (the proxy forwards them bounded, the
 * receiver checks a signature over the exact bytes). Each states who may use it.
 */
export async function apiRoutes(app: FastifyInstance, deps: ApiRouteDeps): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));

  app.get(HEALTH_PATH, { config: { access: 'public' } }, async (_request, reply) =>
    reply.header('cache-control', 'no-store').type('text/plain; charset=utf-8').send('ok\n'),
  );

  // Who is asking, and whose share of the governor the call takes (see governor/).
  const callerOf = (request: FastifyRequest): ProxyOptions => {
    const { actor, session } = admissionOf(request.raw);
    return { ...deps.proxy, actor, session: session?.idHash };
  };
  // The proxy forwards the path as sent: a spelling that only decodes into `/api/...` is
  // answered there as not a versioned API path.
  const proxy = rawReply((request, reply) =>
    proxyApiRequest(request.raw, reply.raw, deps.upstream, deps.hub.governor, callerOf(request)),
  );
  const proxied = [
    { method: ['GET', 'HEAD'], access: 'viewer' },
    { method: ['POST', 'PUT', 'PATCH'], access: 'editor' },
    // The API's deletions take listings off sale (and webhooks off the seller's account).
    { method: ['DELETE'], access: 'owner', action: 'deactivate listings' },
  ] as const;
  for (const url of ['/api', '/api/*']) {
    for (const { method, ...config } of proxied) {
      app.route({ method: [...method], url, config, handler: proxy });
    }
  }

  // The marketplace's deliveries: open, each checked by its signature before its body is read.
  app.post(HUB_PATHS.webhooks, {
    config: { access: 'public' },
    handler: rawReply((request, reply) => deps.hub.receive(request.raw, reply.raw)),
  });
  app.get(HUB_PATHS.events, {
    config: { access: 'viewer' },
    // A stream has no head to give without its body: HEAD is not one of its methods.
    exposeHeadRoute: false,
    handler: rawReply(async (request, reply) =>
      deps.hub.openStream(reply.raw, admissionOf(request.raw).session?.idHash),
    ),
  });
  app.get(HUB_PATHS.log, {
    config: { access: 'viewer' },
    handler: rawReply(async (_request, reply) => deps.hub.sendLog(reply.raw)),
  });
  for (const path of Object.values(ACTIVITY_PATHS)) {
    app.get(path, {
      config: { access: 'viewer' },
      handler: rawReply(async (request, reply) => {
        if (!serveActivity(request.raw, reply.raw, path, deps.activity)) {
          sendJson(reply.raw, 404, 'not_found', 'Nothing here.');
        }
      }),
    });
  }
}
