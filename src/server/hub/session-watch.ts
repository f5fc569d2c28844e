import { reportBackgroundError } from './background-error';
import type { SessionLiveness } from './session-liveness';

/** How often the streams' sessions are looked up when nothing is pushed (expiry, another process). */
export const SESSION_SWEEP_MS = 2_000;

/** The open streams as the watch sees them: their sessions, and a way to end a session's. */
export interface WatchedStreams {
  sessions(): Iterable<string>;
  end(sessionIds: ReadonlySet<string>): void;
}

/**
 * Ends the streams of sessions that are over: when asked (before every push), every few seconds,
 * and at once when the sign-in side reports an end. A lookup that fails counts as over.
 */
export class SessionWatch {
  private readonly sweep: ReturnType<typeof setInterval>;
  private readonly stopListening: (() => void) | undefined;

  constructor(
    private readonly liveness: SessionLiveness,
    private readonly streams: WatchedStreams,
  ) {
    this.stopListening = liveness.onEnded?.((ended) =>
      this.guarded('closing the streams of ended sessions', () =>
        ended === 'look' ? this.check() : streams.end(new Set(ended)),
      ),
    );
    this.sweep = setInterval(
      () => this.guarded('looking up the streams’ sessions', () => this.check()),
      SESSION_SWEEP_MS,
    );
    this.sweep.unref?.();
  }

  /** Ends the streams of every session that no longer lives. */
  check(): void {
    const over = new Set<string>();
    for (const id of new Set(this.streams.sessions())) {
      if (!this.alive(id)) over.add(id);
    }
    if (over.size > 0) this.streams.end(over);
  }

  stop(): void {
    clearInterval(this.sweep);
    this.stopListening?.();
  }

  private alive(sessionId: string): boolean {
    try {
      return this.liveness.alive(sessionId);
    } catch (error) {
      reportBackgroundError('a session lookup', error);
      return false;
    }
  }

  private guarded(where: string, step: () => void): void {
    try {
      step();
    } catch (error) {
      reportBackgroundError(where, error);
    }
  }
}
