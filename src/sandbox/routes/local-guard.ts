import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../platform/api-error';
import { presentedControlToken, safeEqual } from '../platform/credentials';
import type { HostNames } from '../platform/host-names';
import { isPublicApiPath, sendRefusal } from './request-pipeline';

/** Any open site can reach a local tool: answer own Host names only, refuse cross-site. */
export interface LocalGuardOptions {
  /** The Host names answered; undefined until the sandbox listens (nothing arrives before). */
  hosts(): HostNames | undefined;
  /** `SANDBOX_CONTROL_TOKEN`: when set, every `/_sandbox/*` call must present it. */
  controlToken?: string;
}

const header = (request: FastifyRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** Why a request is cross-site, or undefined; non-browsers send neither header and pass. */
function crossSiteReason(request: FastifyRequest): string | undefined {
  const site = header(request, 'sec-fetch-site');
  if (site === 'cross-site' || site === 'same-site') return `Sec-Fetch-Site: ${site}`;
  const origin = header(request, 'origin');
  if (origin === undefined) return undefined;
  const host = (header(request, 'host') ?? '').toLowerCase();
  const own = origin.toLowerCase();
  return own === `http://${host}` || own === `https://${host}` ? undefined : 'a foreign Origin';
}

/** `/_sandbox` by the URL as sent or by the route it matched (a percent-encoded path decodes). */
const isControlRequest = (request: FastifyRequest) =>
  request.url.startsWith('/_sandbox') || (request.routeOptions.url ?? '').startsWith('/_sandbox');

export function installLocalGuard(app: FastifyInstance, options: LocalGuardOptions): void {
  app.addHook('onRequest', async (request, reply) => {
    const control = isControlRequest(request);
    const isPublic = !control && isPublicApiPath(request.url);
    const refuse = (status: number, code: string, message: string) =>
      isPublic
        ? sendRefusal(reply, request, new ApiError(status, code, message))
        : reply.status(status).send({ error: message });

    if (!options.hosts()?.allows(header(request, 'host'))) {
      return refuse(
        421,
        'misdirected_request',
        'This sandbox does not answer to this Host; name it in SANDBOX_ALLOWED_HOSTS to allow it',
      );
    }
    // The public pages that listings link to may be opened from anywhere (a link is a navigation).
    if (!control && !isPublic) return;
    const reason = crossSiteReason(request);
    if (reason !== undefined) {
      return refuse(
        403,
        'cross_site_request',
        `Refused: a request from another site (${reason}); the sandbox serves local tools only`,
      );
    }
    const presented = control ? presentedControlToken(request.headers) : undefined;
    if (
      control &&
      options.controlToken !== undefined &&
      (presented === undefined || !safeEqual(options.controlToken, presented))
    ) {
      return reply.status(401).send({
        error:
          'The control API needs its token (SANDBOX_CONTROL_TOKEN): send Authorization: Bearer <token> or X-Sandbox-Control-Token: <token>',
      });
    }
  });
}
