import { useSyncExternalStore } from 'react';
import { keptDb } from '../api/kept/kept-db';
import { outbox, pendingOf, type OutboxItem } from '../api/outbox/outbox';
import {
  bootSession,
  keepDays,
  noteServerSeen,
  noteSessionEnded,
  onSessionEnded,
  serverSeenAt,
} from '../lib/session';
import { clearAccountData } from './clear-account';
import { Listeners } from '../client/listeners';
import { SESSION_ENDED_CACHE } from '../shared/browser-keeps';

/** An ended or long-unseen session clears the account's data here, after saying what was waiting. */

const DAY_MS = 24 * 60 * 60 * 1000;

type Why = 'ended' | 'unseen';

let note: string | null = null;
const listeners = new Listeners();

function publish(next: string | null): void {
  note = next;
  listeners.tell();
}

/** A waiting write in the seller's words, with its maker when sign-in is on. */
const lineOf = (item: OutboxItem) =>
  item.by?.name ? `${item.label} (by ${item.by.name})` : item.label;

/** What the seller is told when the account's data is cleared. */
export function clearedNoteOf(why: Why, waiting: readonly OutboxItem[], days = keepDays()): string {
  const first =
    why === 'ended'
      ? 'Your session ended, so this device’s copy of your data was cleared.'
      : `This device had not reached the server for over ${days === 1 ? 'a day' : `${days} days`}, so its copy of your data was cleared.`;
  if (waiting.length === 0) return first;
  const changes = waiting.length === 1 ? 'This change was' : `These ${waiting.length} changes were`;
  return `${first} ${changes} waiting to be sent and ${waiting.length === 1 ? 'was' : 'were'} not sent: ${waiting.map(lineOf).join('; ')}. Make ${waiting.length === 1 ? 'it' : 'them'} again once signed in, if still wanted.`;
}

let clearing: Promise<void> | undefined;

/** Says what was waiting, then clears the account's data from this browser (once at a time). */
export function clearForEndedSession(why: Why): Promise<void> {
  clearing ??= (async () => {
    const box = outbox();
    await box.load();
    publish(clearedNoteOf(why, pendingOf(box.snapshot())));
    // Nothing of it in memory, and the connections closed so the databases can go.
    box.forget();
    keptDb()?.close();
    await clearAccountData();
  })().finally(() => {
    clearing = undefined;
  });
  return clearing;
}

/** At page open: the data goes if the worker saw the session end or the server is long unseen. */
export async function checkKeptDataAtOpen(now = Date.now()): Promise<void> {
  const ended =
    typeof caches !== 'undefined' && (await caches.has(SESSION_ENDED_CACHE).catch(() => false));
  const seen = serverSeenAt();
  const unseen = seen !== undefined && now - seen > keepDays() * DAY_MS;
  if (ended || unseen) await clearForEndedSession(ended ? 'ended' : 'unseen');
  // Counted from the first open: a device never heard from does not keep data for ever either.
  if (serverSeenAt() === undefined) noteServerSeen(now);
}

/** Each outbox write carries its maker; a send that meets the session's end clears the data. */
export function connectOutboxToSession(): () => void {
  const box = outbox();
  box.whoIsHere = () => {
    const session = bootSession();
    return session ? { name: session.name, session: session.session } : null;
  };
  // As the page's other calls do through the query cache: the banner, then the clearing.
  box.onSessionEnded = noteSessionEnded;
  return onSessionEnded(() => void clearForEndedSession('ended'));
}

/** What was cleared and not sent, for the banner; null when nothing was cleared. */
export function useClearedNote(): string | null {
  return useSyncExternalStore(
    listeners.subscribe,
    () => note,
    () => note,
  );
}

/** The banner's "OK": the note has been read. */
export const dismissClearedNote = () => publish(null);
