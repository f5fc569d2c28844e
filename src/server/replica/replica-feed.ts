import type { HubFeedFailure, HubFeedHead } from '../../client/hub-feed-answer';
import { asciiJsonText } from '../../shared/ascii-json';
import type { ReplicaCollection, ReplicaStore } from './replica-store';

/**
 * The replica's change feed, as a browser reads it: a snapshot of a collection's rows, then only
 * the rows changed since the browser's change number. The cursor the hub hands out names the
 * replica, its epoch and where the browser stands; the browser keeps it and hands it back (it is
 * opaque to the page). Rows go as the store keeps them (JSON text), never parsed again here.
 */

/** Rows in one answer: a page of a snapshot shows while the next is read. */
export const FEED_PAGE_ROWS = 5_000;

/** Where a browser stands in the feed. */
type Position =
  /** Part way through a snapshot taken at `change`: rows after `rowid` come next. */
  | { snapshot: number; after: number }
  /** Up to date with change `change`. */
  | { change: number };

interface Cursor {
  replica: string;
  epoch: number;
  at: Position;
}

const encode = (cursor: Cursor): string =>
  Buffer.from(JSON.stringify(cursor), 'utf8').toString('base64url');

const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

/** The cursor a browser sent back, or undefined when it is not one of ours (a snapshot then). */
export function decodeCursor(text: string | undefined): Cursor | undefined {
  if (!text || text.length > 512) return undefined;
  try {
    const value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Partial<Cursor>;
    const at = value.at as Record<string, unknown> | undefined;
    if (typeof value.replica !== 'string' || !isCount(value.epoch) || !at) return undefined;
    if (isCount(at.change))
      return { replica: value.replica, epoch: value.epoch, at: { change: at.change } };
    if (isCount(at.snapshot) && isCount(at.after)) {
      return {
        replica: value.replica,
        epoch: value.epoch,
        at: { snapshot: at.snapshot, after: at.after },
      };
    }
    return undefined;
  } catch {
    return undefined;
  }
}

/** One answer of the feed without its rows (spliced in as stored: see `feedBody`). */
export type FeedPage = HubFeedHead;
export type FeedFailure = HubFeedFailure;

/** The feed's answer to `cursor` (undefined, another replica's or another epoch's: a snapshot). */
export function feedAnswer(
  store: ReplicaStore,
  collection: ReplicaCollection,
  sent: Cursor | undefined,
  failure: FeedFailure | null,
  limit = FEED_PAGE_ROWS,
): { page: FeedPage; rows: string[] } {
  const replica = store.identity();
  const epoch = Number(store.meta('epoch') ?? 0);
  const change = store.changeNumber();
  const ours = sent !== undefined && sent.replica === replica && sent.epoch === epoch;
  const at: Position = ours ? sent.at : { snapshot: change, after: 0 };
  let rows: string[];
  let next: Position;
  let more: boolean;
  if ('snapshot' in at) {
    const read = store.feedPage(collection, { snapshotAfter: at.after }, limit);
    rows = read.bodies;
    more = rows.length === limit;
    // The snapshot's last page: next come the changes made since it began.
    next = more ? { snapshot: at.snapshot, after: read.last ?? at.after } : { change: at.snapshot };
    // Rows changed while the snapshot was read come again from the change feed.
    if (!more) more = change > at.snapshot;
  } else {
    const read = store.feedPage(collection, { changedAfter: at.change }, limit);
    rows = read.bodies;
    more = rows.length === limit;
    next = { change: read.last ?? Math.max(at.change, 0) };
    // No row of this collection changed since: the browser stands at the newest number.
    if (read.last === undefined) next = { change: Math.max(at.change, change) };
  }
  const state = store.state(collection);
  return {
    rows,
    page: {
      whole: !ours || ('snapshot' in at && at.after === 0),
      more,
      cursor: encode({ replica, epoch, at: next }),
      change,
      filled: state.filled,
      syncedAt: state.syncedAt,
      failure: state.filled ? null : failure,
      setAside: store
        .degraded()
        .filter((entry) => entry.collection === collection)
        .map((entry) => ({
          id: entry.id,
          code: entry.code,
          message: entry.message,
          seenAt: entry.lastSeen,
        })),
    },
  };
}

/**
 * The answer's JSON in ASCII (the store keeps rows so; see shared/ascii-json): the page's fields
 * and its rows spliced in as stored, written into sized bytes.
 */
export function feedBody(answer: { page: FeedPage; rows: string[] }): Buffer {
  const head = asciiJsonText(answer.page);
  const open = `${head.slice(0, -1)},"rows":[`;
  let length = open.length + Math.max(0, answer.rows.length - 1) + 2;
  for (const row of answer.rows) length += row.length;
  // Over an ArrayBuffer of this realm (see asciiPage): fastify sends it as bytes.
  const bytes = Buffer.from(new ArrayBuffer(length));
  let at = bytes.write(open, 0, 'latin1');
  answer.rows.forEach((row, i) => {
    if (i > 0) bytes[at++] = 0x2c; // ,
    at += bytes.write(row, at, 'latin1');
  });
  bytes[at++] = 0x5d; // ]
  bytes[at] = 0x7d; // }
  return bytes;
}
