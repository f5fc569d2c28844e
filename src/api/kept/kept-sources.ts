import type { SlabdeskClient } from '../../client';
import { HubFeedAnswer } from '../../client/hub-feed-answer';
import { isRecord } from '../../shared/is-record';
import { callServer } from '../server-call';
import type { HubFeedPage, KeptSource } from './kept-sync';

/** The kept rows' format: bump it when a kept row's content changes, so old copies are rebuilt. */
export const KEPT_FORMAT = 4;
/** The most answers one read follows: a runaway hub stops here (a snapshot of 200,000 is 40). */
const MAX_ANSWERS = 100;

/** The hub's pages of `collection` from `cursor`; `fresh` asks the hub to read first. */
async function* hubFeed<T>(
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
    const path = `/hub/replica/${collection}${query}`;
    const page = await callServer(client, HubFeedAnswer, path, { signal: options.signal });
    yield {
      ...page,
      setAside: page.setAside.map(({ id, code, message, seenAt }) => ({
        id,
        kind: code === 'unexpected_response' ? 'unparseable' : 'degraded',
        code,
        message,
        issues: [],
        requestId: undefined,
        seenAt,
      })),
      rows: page.rows.filter(isRecord).map(row),
    };
    if (!page.more) return;
    from = page.cursor;
  }
  throw new Error('The hub’s change feed did not end.');
}

/** One collection's kept reads from the hub's replica (levels gain an `id`). */
export function keptSource<T extends { id: string }>(
  client: SlabdeskClient,
  collection: string,
  hubCollection: string,
  row: (value: Record<string, unknown>) => T = (value) => value as T,
): KeptSource<T> {
  return {
    collection,
    // The deployment the rows come from; which replica and epoch is the hub's cursor's to say.
    scope: [`v${KEPT_FORMAT}`, collection, client.transport.resolve('/')].join('|'),
    feed: (cursor, options) => hubFeed(client, hubCollection, row, cursor, options),
  };
}
