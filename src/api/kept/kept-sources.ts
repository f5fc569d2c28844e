import type { SlabdeskClient } from '../../client';
import { hubFeed } from './hub-feed';
import type { KeptSource } from './kept-sync';

/** The kept rows' format: bump it when a kept row's content changes, so old copies are rebuilt. */
export const KEPT_FORMAT = 4;

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
