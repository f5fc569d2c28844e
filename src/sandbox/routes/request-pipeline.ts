import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PlatformState, SandboxContext } from '../context';
import { ApiError, errorEnvelope, invalidApiKey } from '../platform/api-error';
import { hashToken, queryCarriesCredential, tokenFromHeaders } from '../platform/credentials';
import { BUCKETS } from '../platform/leaky-bucket';
import { hasScope, type ApiScope } from '../platform/scopes';
import { CURRENT_VERSION, SUPPORTED_VERSIONS, isSupportedVersion } from '../platform/versions';

declare module 'fastify' {
  interface FastifyRequest {
    platform: PlatformState | null;
  }
  interface FastifyContextConfig {
    scope?: ApiScope | null;
  }
}

/** Each refused seller state answers 403 `seller_<state>` with its message. */
const SELLER_STATE_MESSAGES: Record<string, string> = {
  not_approved: 'The seller account has not completed approval',
  frozen: 'The seller account is temporarily frozen',
  banned: 'The seller account is not permitted to use the API',
  not_eligible: 'The seller account cannot use the API right now',
  paused: 'API access is paused by the service; keys stay intact and access resumes automatically',
};

export const isPublicApiPath = (url: string) =>
  !url.startsWith('/_sandbox') &&
  !url.startsWith('/market') &&
  url !== '/' &&
  !url.startsWith('/favicon');

const isWrite = (method: string) => method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS';

/** The state before authentication: the mode guessed from the token's prefix, for the headers. */
function unauthenticated(request: FastifyRequest): PlatformState {
  const header = `${request.headers['x-service-access-token'] ?? ''} ${request.headers.authorization ?? ''}`;
  const mode = header.includes('svc_test_') ? 'test' : 'live';
  return { mode, used: 0, capacity: BUCKETS[mode].capacity, scopes: [] };
}

/** The platform's check order: credential, key, bucket, version, incidents, seller, mode, scope. */
function authorize(ctx: SandboxContext, request: FastifyRequest): void {
  const state = unauthenticated(request);
  request.platform = state;

  if (queryCarriesCredential(request.query as Record<string, unknown>)) throw invalidApiKey();
  const token = tokenFromHeaders(request.headers);
  if (!token) throw invalidApiKey();
  const key = ctx.store.accounts.keyByHash(hashToken(token));
  if (!key || key.revoked_at !== null) throw invalidApiKey();
  state.mode = key.mode;
  state.capacity = BUCKETS[key.mode].capacity;
  state.key = key;
  state.scopes = JSON.parse(key.scopes) as string[];

  const charge = ctx.buckets.charge(key.id, key.mode);
  state.used = charge.used;
  if (!charge.allowed) {
    throw new ApiError(
      429,
      'rate_limited',
      'Exceeded the API call limit; retry after Retry-After seconds',
      { retryAfter: charge.retryAfter },
    );
  }

  const version =
    (request.params as { version?: string }).version ?? request.url.split('/')[1] ?? '';
  if (!isSupportedVersion(version)) {
    throw new ApiError(404, 'unknown_api_version', `API version "${version}" is not supported`, {
      extra: { supported_versions: SUPPORTED_VERSIONS },
    });
  }

  const faults = ctx.faults.get();
  if (faults.api_disabled) {
    throw new ApiError(
      503,
      'partner_api_disabled',
      'The Partner API is unavailable during an incident',
      { retryAfter: 30 },
    );
  }
  if (faults.writes_disabled && isWrite(request.method)) {
    throw new ApiError(
      503,
      'partner_api_writes_disabled',
      'Writes are disabled during an incident; reads are unaffected',
      { retryAfter: 30 },
    );
  }

  const seller = ctx.store.accounts.seller(key.seller_id);
  if (!seller || seller.deleted === 1) {
    throw new ApiError(403, 'seller_not_found', 'The account behind this key no longer exists');
  }
  state.seller = seller;
  const refusal = SELLER_STATE_MESSAGES[seller.state];
  if (refusal) throw new ApiError(403, `seller_${seller.state}`, refusal);

  if (isWrite(request.method) && key.mode === 'test' && ctx.deployment === 'production') {
    throw new ApiError(403, 'test_mode_forbidden', 'Test-mode keys are read-only on production');
  }

  const scope = request.routeOptions.config?.scope;
  if (scope && !hasScope(state.scopes, scope)) {
    throw new ApiError(403, 'insufficient_scope', `This endpoint requires the ${scope} scope`, {
      extra: { required_scope: scope },
    });
  }
}

export function sendApiError(reply: FastifyReply, request: FastifyRequest, error: ApiError) {
  if (error.options.retryAfter !== undefined)
    reply.header('Retry-After', String(error.options.retryAfter));
  return reply.status(error.status).send(errorEnvelope(error, request.id));
}

/** A request refused before authorization, with the error envelope and the platform's headers. */
export function sendRefusal(reply: FastifyReply, request: FastifyRequest, error: ApiError) {
  request.platform = unauthenticated(request);
  return sendApiError(reply, request, error);
}

/** Installs the platform: authorization before the body is read, and the four headers on every response. */
export function installPlatform(app: FastifyInstance, ctx: SandboxContext): void {
  app.decorateRequest('platform', null);

  // A refusal thrown here reaches the error handler, which answers with the envelope.
  app.addHook('onRequest', async (request) => {
    if (isPublicApiPath(request.url)) authorize(ctx, request);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('X-Request-Id', request.id);
    const state = request.platform;
    if (state) {
      reply.header('X-Service-Api-Call-Limit', `${state.used}/${state.capacity}`);
      reply.header('X-Service-Api-Version', CURRENT_VERSION);
      reply.header('X-Service-Api-Mode', state.mode);
    }
    return payload;
  });
}
