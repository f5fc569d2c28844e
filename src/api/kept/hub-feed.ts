import type { SlabdeskClient } from '../../client';
import { HubFeedAnswer, type HubFeedHead } from '../../client/hub-feed-answer';
import { callServer } from '../server-call';
import type { KeptSetAside } from './kept-db';

/** The hub's change feed of one collection (shape: client/hub-feed-answer). */

/** One answer of the feed, its rows made the kept collection's. */
export type HubFeedPage<T> = Omit<HubFeedHead, 'setAside'> & {
  setAside: KeptSetAside[];
  rows: T[];
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The most answers one read follows: a runaway hub stops here (a snapshot of 200,000 is 40). */
const MAX_ANSWERS = 100;

/** The feed's path of a collection (the hub's name for it). */
export const feedPath = (collection: string) => `/hub/replica/${collection}`;

/** The hub's pages of `collection` from `cursor`; `fresh` asks the hub to read first. */
export async function* hubFeed<T>(
  client: SlabdeskClient,
  collection: string,
  row: (value: Record<string, unknown>) => T,
  cursor: string | undefined,
  options: { fresh: boolean; signal: AbortSignal | undefined },
): AsyncGenerator<HubFeedPage<T>, void, undefined> {
  let from = cursor;
  for (let answer = 0; answer < MAX_ANSWERS; answer++) {
    const search = new URLSearchParams();
    if (from !== undefined) search.set('cursor', from);
    if (options.fresh && answer === 0) search.set('fresh', '1');
    const query = search.size > 0 ? `?${search.toString()}` : '';
    const page = await callServer(client, HubFeedAnswer, `${feedPath(collection)}${query}`, {
      signal: options.signal,
    });
    yield {
      ...page,
      setAside: page.setAside.map((record) => ({
        id: record.id,
        kind: record.code === 'unexpected_response' ? 'unparseable' : 'degraded',
        code: record.code,
        message: record.message,
        issues: [],
        requestId: undefined,
        seenAt: record.seenAt,
      })),
      rows: page.rows.filter(isRecord).map(row),
    };
    if (!page.more) return;
    from = page.cursor;
  }
  throw new Error('The hub’s change feed did not end.');
}
