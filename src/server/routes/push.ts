import { isIP } from 'node:net';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PUSH_PATHS } from '../../client/hub-messages';
import type { PushOptions, PushPart } from '../push/push-part';

const BODY_LIMIT = 8 * 1024;
const MAX_ENDPOINT = 2_048;
const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);
/** Names that are never a push service on the internet (this machine, a home network's). */
const PRIVATE_NAME = /(^|\.)(localhost|local|lan|internal|home\.arpa)$/i;

const base64url = z
  .string()
  .max(200)
  .regex(/^[A-Za-z0-9_-]+={0,2}$/, 'must be base64url');
const bytesOf = (value: string) => Buffer.from(value.replace(/=+$/, ''), 'base64url');

/** A push service's address: https on a public name (loopback only where allowed), never an IP. */
function endpointProblem(value: string, allowLoopback: boolean): string | undefined {
  if (!URL.canParse(value)) return 'must be a URL';
  const { username, password, hostname, protocol } = new URL(value);
  if (username || password) return 'must not carry a name or password';
  if (allowLoopback && LOOPBACK_NAMES.has(hostname)) {
    return /^https?:$/.test(protocol) ? undefined : 'must be an http or https URL';
  }
  if (protocol !== 'https:') return 'must be an https URL';
  // As DNS reads it: `localhost.` is `localhost`, and a name of one label is a local network's.
  const name = hostname.replace(/\.$/, '');
  const oneLabel = !/^[^.]+(\.[^.]+)+$/.test(name);
  if (isIP(name.replace(/^\[|\]$/g, '')) !== 0 || PRIVATE_NAME.test(name) || oneLabel) {
    return 'must be a push service on the internet';
  }
  return undefined;
}

function subscriptionSchema(allowLoopback: boolean) {
  return z.strictObject({
    endpoint: z
      .string()
      .max(MAX_ENDPOINT)
      .superRefine((value, context) => {
        const message = endpointProblem(value, allowLoopback);
        if (message) context.addIssue({ code: 'custom', message });
      }),
    expirationTime: z.number().nullish(),
    keys: z.strictObject({
      p256dh: base64url.refine((value) => {
        const bytes = bytesOf(value);
        return bytes.length === 65 && bytes[0] === 4;
      }, 'must be an uncompressed P-256 public key'),
      auth: base64url.refine((value) => bytesOf(value).length === 16, 'must be 16 bytes'),
    }),
  });
}

/** Anyone signed in may have their phone told (a viewer at the table too). */
const VIEWER = { access: 'viewer' } as const;

/** The push part's store and keys; loopback push services only where its options allow (tests). */
type PushRouteDeps = Pick<PushPart, 'store' | 'keys'> & Pick<PushOptions, 'allowLoopbackEndpoints'>;

/** Web Push's routes: the hub's public key, and a phone's subscription kept or dropped. */
export const pushRoutes: FastifyPluginAsyncZod<PushRouteDeps> = async (app, deps) => {
  const Subscription = subscriptionSchema(deps.allowLoopbackEndpoints === true);
  const Unsubscribe = z.strictObject({ endpoint: z.string().min(1).max(MAX_ENDPOINT) });

  app.get(PUSH_PATHS.key, { config: VIEWER }, async () => ({ publicKey: deps.keys.publicKey }));

  app.post(
    PUSH_PATHS.subscriptions,
    { bodyLimit: BODY_LIMIT, config: VIEWER, schema: { body: Subscription } },
    async (request, reply) => {
      const { endpoint, keys } = request.body;
      const { actor, session } = request.admission;
      deps.store.subscribe({
        endpoint,
        p256dh: keys.p256dh,
        auth: keys.auth,
        account: session?.name ?? actor?.name ?? null,
        sessionHash: session?.idHash ?? null,
        createdAt: new Date().toISOString(),
      });
      return reply.code(201).send({ subscribed: true });
    },
  );

  app.delete(
    PUSH_PATHS.subscriptions,
    { bodyLimit: BODY_LIMIT, config: VIEWER, schema: { body: Unsubscribe } },
    async (request) => ({ unsubscribed: deps.store.drop('endpoint', [request.body.endpoint]) > 0 }),
  );
};
