import type { SessionBook } from './session-book';
import { serverLog } from '../log';

interface Watched {
  userName: string;
  onEnded: Set<() => void>;
}

/**
 * Sessions something long-lived depends on (an event stream). Ends seen in this process arrive
 * from the book at once; ends made elsewhere (`npm run users` in another process) and quiet expiry
 * are found by re-checking the watched sessions every `checkEveryMs`, then told as the book tells.
 */
export class SessionWatch {
  private readonly watched = new Map<string, Watched>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private readonly stopListening: () => void;

  constructor(
    private readonly book: SessionBook,
    private readonly checkEveryMs: number,
  ) {
    this.stopListening = book.onSessionsEnded((ended, userName) => {
      const ids =
        ended === 'all-of-user'
          ? [...this.watched].filter(([, w]) => same(w.userName, userName)).map(([id]) => id)
          : ended;
      for (const id of ids) this.fire(id);
    });
  }

  /** Calls `onEnded` once when the session ends, however it ends; returns the way to stop watching. */
  watch(idHash: string, userName: string, onEnded: () => void): () => void {
    const entry = this.watched.get(idHash) ?? { userName, onEnded: new Set() };
    entry.onEnded.add(onEnded);
    this.watched.set(idHash, entry);
    this.timer ??= setInterval(() => this.check(), this.checkEveryMs);
    this.timer.unref?.();
    if (!this.book.alive(idHash)) this.fire(idHash);
    return () => {
      entry.onEnded.delete(onEnded);
      if (entry.onEnded.size === 0 && this.watched.get(idHash) === entry) this.forget(idHash);
    };
  }

  /** Re-checks every watched session; the ended ones are told through the book. */
  check(): void {
    const ended = [...this.watched].filter(([idHash]) => !this.book.alive(idHash));
    for (const [idHash, { userName }] of ended) {
      // An expired one is ended (and told) by the book; one ended elsewhere is told here.
      if (!this.book.end(idHash)) this.book.announce([idHash], userName);
    }
  }

  close(): void {
    this.stopListening();
    clearInterval(this.timer);
    this.timer = undefined;
    this.watched.clear();
  }

  private fire(idHash: string): void {
    const entry = this.watched.get(idHash);
    if (!entry) return;
    this.forget(idHash);
    for (const onEnded of entry.onEnded) {
      try {
        onEnded();
      } catch (error) {
        serverLog.error({ err: error }, 'A session-end listener failed');
      }
    }
  }

  private forget(idHash: string): void {
    this.watched.delete(idHash);
    if (this.watched.size === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }
}

/** Account names are compared without case, as the accounts file does. */
const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
