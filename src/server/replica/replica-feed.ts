import { z } from 'zod';
import type { HubFeedFailure, HubFeedHead } from '../../client/hub-feed-answer';
import { asciiJsonText } from '../../shared/ascii-json';
import type { ReplicaCollection, ReplicaStore } from './replica-store';

/**
 * The replica's change feed as a browser reads it: a snapshot of a collection, then the rows
 * changed since its change number. The cursor (opaque to the page, handed back) names the replica,
 * its epoch and where the browser stands. Rows go as stored (JSON text), never parsed again here.
 */

/** Rows in one answer: a page of a snapshot shows while the next is read. */
export const FEED_PAGE_ROWS = 5_000;

const Count = z.int().nonnegative();
const Cursor = z.object({
  replica: z.string(),
  epoch: Count,
  // Up to date with change `change`, or part way through a snapshot taken at `snapshot`.
  at: z.union([z.object({ change: Count }), z.object({ snapshot: Count, after: Count })]),
});
type Cursor = z.infer<typeof Cursor>;

const encode = (cursor: Cursor): string =>
  Buffer.from(JSON.stringify(cursor), 'utf8').toString('base64url');

/** The cursor a browser sent back, or undefined when it is not one of ours (a snapshot then). */
export function decodeCursor(text: string | undefined): Cursor | undefined {
  if (!text || text.length > 512) return undefined;
  try {
    return Cursor.safeParse(JSON.parse(Buffer.from(text, 'base64url').toString('utf8'))).data;
  } catch {
    return undefined;
  }
}

/** The feed's answer to `sent` (none, another replica's or another epoch's: a snapshot). */
export function feedAnswer(
  store: ReplicaStore,
  collection: ReplicaCollection,
  sent: Cursor | undefined,
  failure: HubFeedFailure | null,
  limit = FEED_PAGE_ROWS,
): { page: HubFeedHead; rows: string[] } {
  const replica = store.identity();
  const epoch = Number(store.meta('epoch') ?? 0);
  const change = store.changeNumber();
  const ours = sent !== undefined && sent.replica === replica && sent.epoch === epoch;
  const at: Cursor['at'] = ours ? sent.at : { snapshot: change, after: 0 };
  let read;
  let next: Cursor['at'];
  let more: boolean;
  if ('snapshot' in at) {
    read = store.feedPage(collection, { snapshotAfter: at.after }, limit);
    more = read.bodies.length === limit;
    // The snapshot's last page: next come the changes made since it began (more if any were).
    next = more ? { snapshot: at.snapshot, after: read.last ?? at.after } : { change: at.snapshot };
    more ||= change > at.snapshot;
  } else {
    read = store.feedPage(collection, { changedAfter: at.change }, limit);
    more = read.bodies.length === limit;
    // No row of this collection changed since: the browser stands at the newest number.
    next = { change: read.last ?? Math.max(at.change, change) };
  }
  const state = store.state(collection);
  const setAside = store
    .degraded()
    .filter((entry) => entry.collection === collection)
    .map(({ id, code, message, lastSeen }) => ({ id, code, message, seenAt: lastSeen }));
  const page: HubFeedHead = {
    whole: !ours || ('snapshot' in at && at.after === 0),
    more,
    cursor: encode({ replica, epoch, at: next }),
    change,
    filled: state.filled,
    syncedAt: state.syncedAt,
    failure: state.filled ? null : failure,
    setAside,
  };
  return { rows: read.bodies, page };
}

/** The answer's JSON in ASCII (see shared/ascii-json): its head, its rows spliced in as stored. */
export function feedBody(answer: { page: HubFeedHead; rows: string[] }): Buffer {
  const open = `${asciiJsonText(answer.page).slice(0, -1)},"rows":[`;
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
