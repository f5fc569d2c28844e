import Fastify, { type FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import type { SandboxContext } from './context';
import { registerControlRoutes } from './control/control-routes';
import { registerGroundTruthRoutes } from './control/ground-truth-routes';
import { ApiError, notFound, validationError } from './platform/api-error';
import { MAX_JSON_DEPTH, isJsonContentType, parseJsonBody } from '../shared/json-body';
import { installPlatform, isPublicApiPath, sendApiError } from './routes/request-pipeline';
import { registerMarketPages } from './routes/market-pages';
import { registerReadRoutes } from './routes/read-routes';
import { origin } from './routes/respond';
import { installLocalGuard, type LocalGuardOptions } from './routes/local-guard';
import { buildOpenApiDocument } from './openapi/document';
import type { IdempotencyGuard } from './platform/idempotency';
import { registerWriteRoutes } from './routes/write-routes';
import type { WebhookDispatcher } from './webhooks/dispatcher';
import { registerWebhookRoutes } from './webhooks/webhook-routes';
import { MAX_BODY_BYTES } from '../shared/spec-limits';

/** The control routes' hooks (reset, the clock), and the write and webhook machinery. */
type AppHooks = Parameters<typeof registerControlRoutes>[2] & {
  idempotency: IdempotencyGuard;
  dispatcher: WebhookDispatcher;
};

const JSON_ONLY = 'Request bodies must be JSON, sent as Content-Type: application/json';

/** JSON bodies, depth-bounded; a non-JSON type is 415 (no cross-site `text/plain` JSON). */
function installBodyParsing(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    // The public API answers with its envelope; the control API with `{error}`, the status
    // carried to its error handler.
    const refuse = (error: ApiError, statusCode: number, message: string) =>
      done(
        isPublicApiPath(request.url) ? error : Object.assign(new Error(message), { statusCode }),
        undefined,
      );
    if (!isJsonContentType(request.headers['content-type'])) {
      return refuse(new ApiError(415, 'unsupported_media_type', JSON_ONLY), 415, JSON_ONLY);
    }
    const parsed = parseJsonBody(text);
    const deep = `nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`;
    if (parsed.kind === 'too_deep')
      return refuse(validationError({ body: [deep] }), 400, `body ${deep}`);
    if (parsed.kind === 'invalid') {
      const invalid = new ApiError(422, 'invalid_json', 'The request body is not valid JSON');
      return refuse(invalid, 400, 'body is not valid JSON');
    }
    return done(null, parsed.kind === 'json' ? parsed.value : undefined);
  });
}

export function buildApp(
  ctx: SandboxContext,
  hooks: AppHooks,
  guard: LocalGuardOptions,
  log = false,
): FastifyInstance {
  const app = Fastify({
    logger: log,
    bodyLimit: MAX_BODY_BYTES,
    requestIdHeader: false,
    genReqId: () => `req_${randomBytes(10).toString('hex')}`,
    routerOptions: { ignoreTrailingSlash: true },
  });
  installLocalGuard(app, guard);
  installBodyParsing(app);
  installPlatform(app, ctx);

  app.register(async (api) => {
    api.setErrorHandler((error, request, reply) => {
      const fail = (...args: ConstructorParameters<typeof ApiError>) =>
        sendApiError(reply, request, new ApiError(...args));
      if (error instanceof ApiError) return sendApiError(reply, request, error);
      const status = (error as { statusCode?: number }).statusCode;
      if (status === 413) {
        const extra = { max_bytes: MAX_BODY_BYTES };
        return fail(413, 'body_too_large', `The request body exceeds ${MAX_BODY_BYTES} bytes`, {
          extra,
        });
      }
      if (status === 415) return fail(415, 'unsupported_media_type', JSON_ONLY);
      if ((error as { code?: string }).code?.startsWith('FST_ERR_CTP')) {
        return fail(422, 'invalid_json', 'The request body is not valid JSON');
      }
      request.log.error(error);
      return fail(500, 'internal_error', 'Internal server error');
    });
    registerReadRoutes(api, ctx);
    registerWriteRoutes(api, ctx, hooks.idempotency);
  });

  app.register(async (control) => {
    registerControlRoutes(control, ctx, hooks);
    registerGroundTruthRoutes(control, ctx);
    registerWebhookRoutes(control, ctx, hooks.dispatcher);
    registerMarketPages(control, ctx);
    // The OpenAPI document, with this sandbox's own URL as its server.
    control.get('/_sandbox/openapi.json', async (request, reply) =>
      reply
        .header('content-type', 'application/json; charset=utf-8')
        .send(buildOpenApiDocument(origin(request))),
    );
  });

  app.get('/', async () => ({
    sandbox: 'Slabdesk sandbox for the Partner API 2026-07',
    api: '/2026-07/ping',
    control: '/_sandbox',
  }));

  // What fails outside both APIs' routes (a body refused on the way to a 404) keeps their shapes.
  app.setErrorHandler((error, request, reply) => {
    if (error instanceof ApiError) return sendApiError(reply, request, error);
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    if (status >= 500) request.log.error(error);
    return reply
      .status(status)
      .send({ error: status < 500 && error instanceof Error ? error.message : 'internal error' });
  });

  app.setNotFoundHandler((request, reply) => {
    if (isPublicApiPath(request.url)) return sendApiError(reply, request, notFound());
    return reply
      .status(404)
      .send({ error: `no route ${request.method} ${request.url.split('?')[0]}` });
  });

  return app;
}
