import type { LimiterSettings } from './attempt-limiter';
import type { HashingLimits } from './hashing-queue';

/** How the server's sign-in is set up (`startAppServer`'s `auth`; `run-server` reads the env). */
export interface AuthOptions {
  /** The accounts and sessions (`SLABDESK_USERS_DB`, default `.sandbox/users.db`; `:memory:` ok). */
  usersDb?: string;
  /** `SLABDESK_PUBLIC_URL`: marks the server exposed; `https` makes cookies Secure. */
  publicUrl?: string | undefined;
  /** `SLABDESK_TRUST_PROXY=1`: a reverse proxy in front (client address, TLS). Marks exposed. */
  trustProxy?: boolean | undefined;
  /** `SLABDESK_WEBHOOK_PORT`: a webhook door of its own means deliveries come from outside. */
  webhookPort?: number | string | undefined;
  /** `SLABDESK_REQUIRE_SIGN_IN=1`: sign-in even on loopback. */
  requireSignIn?: boolean | undefined;
  /** `SLABDESK_SESSION_IDLE_MINUTES` (default 720). */
  sessionIdleMinutes?: number | undefined;
  /** `SLABDESK_SESSION_MAX_HOURS` (default 168). */
  sessionMaxHours?: number | undefined;
  /**
   * `SLABDESK_KEEP_DAYS`: a device that has not reached the server this long clears the
   * account's kept data at its next open (default 7; the page is told in its boot facts).
   */
  keepDays?: number | undefined;
  /** The clock for sessions and attempt limits (epoch ms); tests move it. */
  now?: () => number;
  /** The sign-in attempt limits (see AttemptLimiter). */
  limits?: Partial<Omit<LimiterSettings, 'now'>>;
  /** How many password checks run and wait at once (see HashingQueue). */
  hashing?: HashingLimits;
  /** How often watched sessions are re-checked for an end made by another process (ms). */
  sessionCheckMs?: number;
}

export const DEFAULT_USERS_DB = '.sandbox/users.db';
