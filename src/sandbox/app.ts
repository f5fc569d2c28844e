import Fastify, { type FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import type { SandboxContext } from './context';
import { registerControlRoutes } from './control/control-routes';
import { registerGroundTruthRoutes } from './control/ground-truth-routes';
import { ApiError, notFound } from './platform/api-error';
import { installPlatform, isPublicApiPath, sendApiError } from './routes/request-pipeline';
import { registerMarketPages } from './routes/market-pages';
import { registerReadRoutes } from './routes/read-routes';
import { registerOpenApiRoute } from './openapi/openapi-route';
import { MAX_BODY_BYTES } from './platform/spec-limits';

export { MAX_BODY_BYTES } from './platform/spec-limits';

export interface AppHooks {
  reset(seed: 'none' | 'demo'): void;
  afterClockAdvance(now: number): Promise<void> | void;
  /** Registers further public API routes (the write API) inside the public API's error handling. */
  registerPublicRoutes?(app: FastifyInstance, ctx: SandboxContext): void;
  /** Registers further control routes inside the control API's error handling. */
  registerControlRoutes?(app: FastifyInstance, ctx: SandboxContext): void;
}

/** Parses JSON bodies of any content type; an unparsable body is 422 `invalid_json` on the public API. */
function installBodyParsing(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(
        isPublicApiPath(request.url)
          ? new ApiError(422, 'invalid_json', 'The request body is not valid JSON')
          : Object.assign(new Error('body is not valid JSON'), { statusCode: 400 }),
        undefined,
      );
    }
  });
}

export function buildApp(ctx: SandboxContext, hooks: AppHooks, log = false): FastifyInstance {
  const app = Fastify({
    logger: log,
    bodyLimit: MAX_BODY_BYTES,
    requestIdHeader: false,
    genReqId: () => `req_${randomBytes(10).toString('hex')}`,
    routerOptions: { ignoreTrailingSlash: true },
  });
  installBodyParsing(app);
  installPlatform(app, ctx);

  app.register(async (api) => {
    api.setErrorHandler((error, request, reply) => {
      if (error instanceof ApiError) return sendApiError(reply, request, error);
      const status = (error as { statusCode?: number }).statusCode;
      if (status === 413) {
        return sendApiError(
          reply,
          request,
          new ApiError(413, 'body_too_large', `The request body exceeds ${MAX_BODY_BYTES} bytes`, {
            extra: { max_bytes: MAX_BODY_BYTES },
          }),
        );
      }
      if (status === 415 || (error as { code?: string }).code?.startsWith('FST_ERR_CTP')) {
        return sendApiError(
          reply,
          request,
          new ApiError(422, 'invalid_json', 'The request body is not valid JSON'),
        );
      }
      request.log.error(error);
      return sendApiError(
        reply,
        request,
        new ApiError(500, 'internal_error', 'Internal server error'),
      );
    });
    registerReadRoutes(api, ctx);
    hooks.registerPublicRoutes?.(api, ctx);
  });

  app.register(async (control) => {
    registerControlRoutes(control, ctx, hooks);
    registerGroundTruthRoutes(control, ctx);
    hooks.registerControlRoutes?.(control, ctx);
    registerMarketPages(control, ctx);
    registerOpenApiRoute(control);
  });

  app.get('/', async () => ({
    sandbox: 'Slabdesk sandbox for the Partner API 2026-07',
    api: '/2026-07/ping',
    control: '/_sandbox',
  }));

  app.setNotFoundHandler((request, reply) => {
    if (isPublicApiPath(request.url)) return sendApiError(reply, request, notFound());
    return reply
      .status(404)
      .send({ error: `no route ${request.method} ${request.url.split('?')[0]}` });
  });

  return app;
}
