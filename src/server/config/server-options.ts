import { DEFAULT_USERS_DB } from '../auth/accounts-store';
import type { AuthOptions } from '../auth/auth-gate';
import type { Settings } from './settings';

/** What the settings say about sign-in (see auth/request-facts.ts for what marks a server exposed). */
export function authOptionsOf(settings: Settings): AuthOptions {
  return {
    usersDb: settings.SLABDESK_USERS_DB ?? DEFAULT_USERS_DB,
    publicUrl: settings.SLABDESK_PUBLIC_URL,
    trustProxy: settings.SLABDESK_TRUST_PROXY ?? false,
    webhookPort: settings.SLABDESK_WEBHOOK_PORT,
    requireSignIn: settings.SLABDESK_REQUIRE_SIGN_IN ?? false,
    sessionIdleMinutes: settings.SLABDESK_SESSION_IDLE_MINUTES,
    sessionMaxHours: settings.SLABDESK_SESSION_MAX_HOURS,
    keepDays: settings.SLABDESK_KEEP_DAYS,
  };
}

/** The webhook door: a port of its own for deliveries, when `SLABDESK_WEBHOOK_PORT` is set. */
export function webhookDoorOptions(settings: Settings): {
  webhookPort?: number;
  webhookHost?: string;
} {
  const { SLABDESK_WEBHOOK_PORT: webhookPort, SLABDESK_WEBHOOK_HOST: webhookHost } = settings;
  if (webhookPort === undefined) return {};
  return { webhookPort, ...(webhookHost ? { webhookHost } : {}) };
}

export const activityPathOf = (settings: Settings): string =>
  settings.SLABDESK_ACTIVITY_DB ?? '.sandbox/activity.db';
