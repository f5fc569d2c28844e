/** How sign-in is set up (`startAppServer`'s `auth`; config/server-options.ts reads the env). */
export interface AuthOptions {
  /** `SLABDESK_USERS_DB`: the accounts and sessions (`:memory:` ok). */
  usersDb?: string;
  /** The settings that mark the server exposed (auth/request-facts.ts) and read its transport. */
  publicUrl?: string | undefined;
  trustProxy?: boolean | undefined;
  webhookPort?: number | string | undefined;
  requireSignIn?: boolean | undefined;
  /** `SLABDESK_SESSION_IDLE_MINUTES` (720) and `SLABDESK_SESSION_MAX_HOURS` (168). */
  sessionIdleMinutes?: number | undefined;
  sessionMaxHours?: number | undefined;
  /** `SLABDESK_KEEP_DAYS` (7): a device this long without the server clears the account's data. */
  keepDays?: number | undefined;
  /** The clock for sessions and attempt limits (epoch ms); tests move it. */
  now?: () => number;
}

export const DEFAULT_USERS_DB = '.sandbox/users.db';
