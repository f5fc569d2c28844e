import type { FastifyInstance } from 'fastify';
import { HUB_PATHS, type ServerHub } from '../hub/server-hub';
import { rawReply } from '../plugins/raw-reply';

/** The hub's routes: deliveries (open: the signature is checked first), stream, log, health. */
export async function hubRoutes(app: FastifyInstance, { hub }: { hub: ServerHub }) {
  // Deliveries read their own body (bounded, after the signature header); a stream takes none.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
  // For a container's or a monitor's health check: open, and tells nothing but that it answers.
  app.get('/healthz', { config: { access: 'public' } }, async (_request, reply) =>
    reply.header('cache-control', 'no-store').type('text/plain; charset=utf-8').send('ok\n'),
  );
  app.post(HUB_PATHS.webhooks, {
    config: { access: 'public' },
    handler: rawReply((request, reply) => hub.receive(request.raw, reply.raw)),
  });
  app.get(HUB_PATHS.events, {
    config: { access: 'viewer' },
    // A stream has no head to give without its body: HEAD is not one of its methods.
    exposeHeadRoute: false,
    handler: rawReply(async (request, reply) =>
      hub.openStream(reply.raw, request.admission.session?.idHash),
    ),
  });
  app.get(HUB_PATHS.log, { config: { access: 'viewer' } }, async (_request, reply) =>
    reply.header('cache-control', 'no-store').send(hub.log()),
  );
}
