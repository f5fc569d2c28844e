/**
 * What the hub needs to know of sign-in sessions: whether one still lives, and (if the sign-in
 * side can tell) the moment some end. Ids are whatever the gate names a session by (its id hash).
 */
export interface SessionLiveness {
  /**
   * False once the session is over: signed out, ended everywhere, its account removed, expired.
   * Asking must not count as using the session (it must not put its idle expiry off).
   */
  alive(sessionId: string): boolean;
  /**
   * Calls `listener` with sessions just ended, or `'look'` when sessions ended that it cannot name
   * (every session of an account): then each stream's session is looked up. Returns the unsubscribe.
   */
  onEnded?(listener: (sessionIds: readonly string[] | 'look') => void): () => void;
}
