import { z } from 'zod';
import { DEFAULT_USERS_DB } from '../auth/accounts-store';

/** Every setting of `npm run dev` and `npm start`, read once, one schema; `--help` prints it. */
const text = z.string().trim();
const flag = z
  .enum(['0', '1', 'true', 'false'])
  .transform((value) => value === '1' || value === 'true');
const positive = z.coerce.number().positive();
const port = z.coerce.number().int().min(0).max(65535);

/** A value with a comment after it: systemd and `docker --env-file` keep it as part of the value. */
const trailingComment = /\s#|\s{2,}/;
const address = (schemes: readonly string[]) =>
  text
    .refine(
      (value) => !trailingComment.test(value),
      'has text after the address (a comment after the value?): systemd and docker keep it; put comments on a line of their own',
    )
    .refine((value) => !/\s/.test(value), 'must not contain spaces')
    .refine((value) => URL.canParse(value), 'is not a URL')
    .refine(
      // Zod goes on after a failed check: a value that is no URL is left to the one before.
      (value) => !URL.canParse(value) || schemes.includes(new URL(value).protocol),
      `must start with ${schemes.map((scheme) => `${scheme}//`).join(' or ')}`,
    );
const word = text.regex(/^\S+$/, 'must not contain spaces or a comment');

/** Each setting: its schema, and what `--help` says of it. */
export const SETTINGS = {
  SVC_BASE_URL: [address(['https:', 'http:']), 'the API base URL; unset: the demo sandbox'],
  SVC_API_KEY: [word, 'the API key (required with SVC_BASE_URL)'],
  SVC_WEBHOOK_SECRET: [word, 'the registered webhook endpoint’s signing secret'],
  SVC_WEBHOOK_SECRET_PREVIOUS: [word, 'the secret before a rotation, still accepted'],
  SLABDESK_PUBLIC_URL: [address(['https:', 'http:']), 'the address people type'],
  SLABDESK_ALLOWED_HOSTS: [text, 'more host names to answer to, comma-separated'],
  SLABDESK_TRUST_PROXY: [flag, '1 behind Caddy, nginx or a tunnel'],
  SLABDESK_REQUIRE_SIGN_IN: [flag, '1: sign-in even on loopback'],
  SLABDESK_WEBHOOK_PORT: [port, 'a second port for webhook deliveries only'],
  SLABDESK_WEBHOOK_HOST: [word, 'the address that port binds (default: the main one)'],
  SLABDESK_USERS_DB: [word, 'accounts and sessions (default .sandbox/users.db)'],
  SLABDESK_ACTIVITY_DB: [word, 'who changed what (default .sandbox/activity.db)'],
  SLABDESK_HUB_DB: [word, 'deliveries already applied (default .sandbox/hub.db)'],
  SLABDESK_RECONCILE_MINUTES: [
    positive,
    'the hub reads what changed once this often with no webhook (1; 15 with one)',
  ],
  SLABDESK_SANDBOX_DB: [word, 'the demo sandbox’s store (default .sandbox/dev.db)'],
  SLABDESK_DEMO_MODE: [z.enum(['live', 'test']), 'the demo sandbox’s key: live or test'],
  SLABDESK_SESSION_IDLE_MINUTES: [positive, 'a session ends after this long unused (720)'],
  SLABDESK_SESSION_MAX_HOURS: [positive, 'and after this long in any case (168)'],
  SLABDESK_KEEP_DAYS: [
    positive,
    'a device clears its kept data after this long without the server (7)',
  ],
  SLABDESK_VAPID_PUBLIC_KEY: [
    word,
    'Web Push: the VAPID public key (unset: a pair made once, kept)',
  ],
  SLABDESK_VAPID_PRIVATE_KEY: [word, 'Web Push: its private key'],
  SLABDESK_VAPID_SUBJECT: [
    address(['https:', 'mailto:']),
    'Web Push: a contact for the push services (https: or mailto:)',
  ],
  SLABDESK_LOG_LEVEL: [
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    'how much the server logs (info: one line per request)',
  ],
} satisfies Record<string, [z.ZodType, string]>;

type Name = keyof typeof SETTINGS;
export type Settings = { [K in Name]?: z.output<(typeof SETTINGS)[K][0]> };

/** A setting that does not parse: every problem at once, each with its variable's name. */
export class SettingsError extends Error {
  constructor(readonly problems: string[]) {
    super(`Settings:\n${problems.map((problem) => `  ${problem}`).join('\n')}`);
    this.name = 'SettingsError';
  }
}

/** Plain http is allowed only for this machine and a home network (see docs/deploy.md, option B). */
const HOME_NETWORK =
  /^(localhost|127\.[\d.]+|\[::1\]|10\.[\d.]+|192\.168\.[\d.]+|172\.(1[6-9]|2\d|3[01])\.[\d.]+|100\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7])\.[\d.]+|[\w.-]+\.(local|lan|internal|home\.arpa))$/i;

const unsetWhenEmpty = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

/** The environment as one schema: each setting (empty counts as unset), then what goes together. */
const Environment = z
  .object(
    Object.fromEntries(
      Object.entries(SETTINGS).map(([name, [schema]]) => [
        name,
        z.preprocess(unsetWhenEmpty, schema.optional()),
      ]),
    ),
  )
  .superRefine((read, ctx) => {
    // Only the settings that parsed are weighed together.
    const failed = new Set(ctx.issues.map((issue) => issue.path?.[0]));
    const settings: Settings = Object.fromEntries(
      Object.entries(read).filter(([name]) => !failed.has(name)),
    );
    const problem = (message: string) => ctx.addIssue({ code: 'custom', message, input: read });
    if (settings.SVC_BASE_URL !== undefined && settings.SVC_API_KEY === undefined) {
      problem('SVC_API_KEY is required when SVC_BASE_URL is set');
    }
    if (
      (settings.SLABDESK_VAPID_PUBLIC_KEY === undefined) !==
      (settings.SLABDESK_VAPID_PRIVATE_KEY === undefined)
    ) {
      problem('SLABDESK_VAPID_PUBLIC_KEY and SLABDESK_VAPID_PRIVATE_KEY go together: set both');
    }
    const publicUrl = settings.SLABDESK_PUBLIC_URL && new URL(settings.SLABDESK_PUBLIC_URL);
    if (publicUrl && publicUrl.protocol !== 'https:' && !HOME_NETWORK.test(publicUrl.hostname)) {
      problem(
        'SLABDESK_PUBLIC_URL must start with https:// for an address on the internet: over http the password and the session cookie travel in clear text',
      );
    }
  });

/** The settings from `env`. Throws SettingsError: every problem at once, one per variable. */
export function readSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const parsed = Environment.safeParse(env);
  // An unset setting has no key, as if the variable were absent.
  if (parsed.success) {
    return Object.fromEntries(
      Object.entries(parsed.data).filter(([, value]) => value !== undefined),
    );
  }
  // Each variable's first problem (a value may fail several checks), then the settings' together.
  const { fieldErrors, formErrors } = z.flattenError(parsed.error);
  const named = Object.entries(fieldErrors).map(
    ([name, messages]) => `${name} ${messages?.[0]} ("${env[name]}")`,
  );
  throw new SettingsError([...named, ...formErrors]);
}

/** Whether the public address is plain http (cookies not Secure, the password in clear text). */
export const clearTextPublicUrl = (settings: Settings): boolean =>
  settings.SLABDESK_PUBLIC_URL?.startsWith('http:') ?? false;

/** `--help`: the flags, then every setting. */
export function helpText(command: string): string {
  const width = Math.max(...Object.keys(SETTINGS).map((name) => name.length));
  return [
    `Usage: ${command} [--port N] [--strictPort] [--host [H]]`,
    '',
    'Settings (environment variables; a .env file is not read by itself):',
    ...Object.entries(SETTINGS).map(([name, [, help]]) => `  ${name.padEnd(width)}  ${help}`),
    '',
    'Deploying: docs/deploy.md',
  ].join('\n');
}

/** The server's parts as the settings set them up (auth/auth-gate.ts says what marks one exposed). */
export function serverOptionsOf(settings: Settings) {
  const minutes = settings.SLABDESK_RECONCILE_MINUTES;
  return {
    auth: {
      usersDb: settings.SLABDESK_USERS_DB ?? DEFAULT_USERS_DB,
      publicUrl: settings.SLABDESK_PUBLIC_URL,
      trustProxy: settings.SLABDESK_TRUST_PROXY ?? false,
      webhookPort: settings.SLABDESK_WEBHOOK_PORT,
      requireSignIn: settings.SLABDESK_REQUIRE_SIGN_IN ?? false,
      sessionIdleMinutes: settings.SLABDESK_SESSION_IDLE_MINUTES,
      sessionMaxHours: settings.SLABDESK_SESSION_MAX_HOURS,
      keepDays: settings.SLABDESK_KEEP_DAYS,
    },
    activity: { path: settings.SLABDESK_ACTIVITY_DB ?? '.sandbox/activity.db' },
    push: {
      vapid: {
        publicKey: settings.SLABDESK_VAPID_PUBLIC_KEY,
        privateKey: settings.SLABDESK_VAPID_PRIVATE_KEY,
        subject: settings.SLABDESK_VAPID_SUBJECT,
      },
    },
    ...(minutes === undefined ? {} : { replica: { reconcileMs: minutes * 60_000 } }),
    // The webhook door: a port of its own for deliveries, when `SLABDESK_WEBHOOK_PORT` is set.
    webhookPort: settings.SLABDESK_WEBHOOK_PORT,
    webhookHost: settings.SLABDESK_WEBHOOK_HOST,
  };
}
