/** Names of what the dashboard keeps in the browser, shared by page and service worker. */

/** The kept copies of the collections (IndexedDB). */
export const KEPT_DB = 'slabdesk-kept';
/** The writes made at the table, waiting to be sent (IndexedDB). */
export const OUTBOX_DB = 'slabdesk-outbox';
/** The bulk editor's jobs, row by row, so a job survives a reload (IndexedDB). */
export const JOB_DB = 'slabdesk-bulk-edit';
/** The build's files, one cache per build (the name ends with the build's hash). */
export const SHELL_CACHE_PREFIX = 'slabdesk-shell-';
/** The pages a signed-in person opened: the account's (they carry its name and token). */
export const PAGES_CACHE = 'slabdesk-pages';
/** The worker's mark: a page of this browser was sent to sign-in because its session ended. */
export const SESSION_ENDED_CACHE = 'slabdesk-session-ended';
