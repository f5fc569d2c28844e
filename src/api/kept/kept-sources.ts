import { isCancelledError, type QueryClient } from '@tanstack/react-query';
import { ApiError, type Page, type Ping, type SlabdeskClient } from '../../client';
import { localStore } from '../local-store';
import { pingQuery } from '../connection-query';
import { KEPT_PAGE_ROWS, type Fingerprint, type KeptSource } from './kept-sync';

/** The kept rows' format: bump it when a kept row's content changes, so old copies are rebuilt. */
export const KEPT_FORMAT = 3;

/**
 * The /ping's answer, asked again when a page let go of it (strict mode mounts twice), or the copy
 * would belong to no one.
 */
async function askPing(client: SlabdeskClient, queryClient: QueryClient) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await queryClient.ensureQueryData(pingQuery(client));
    } catch (error) {
      if (!isCancelledError(error) || attempt >= 3) throw error;
    }
  }
}

/** The last /ping's owner facts, so a page opened with no network still knows whose copy it is. */
const LAST_PING = 'slabdesk-last-ping';
type Owner = Pick<Ping, 'api_version' | 'mode' | 'seller_id' | 'key_id'>;

async function pingOf(client: SlabdeskClient, queryClient: QueryClient): Promise<Owner> {
  const base = client.transport.resolve('/');
  try {
    const ping = await askPing(client, queryClient);
    const owner: Owner = {
      api_version: ping.api_version,
      mode: ping.mode,
      seller_id: ping.seller_id,
      key_id: ping.key_id,
    };
    localStore()?.setItem(LAST_PING, JSON.stringify({ base, owner }));
    return owner;
  } catch (error) {
    // No network at all (not a refusal): the owner this browser last heard from, if any.
    if (!(error instanceof ApiError) || error.status !== 0) throw error;
    const last = localStore()?.getItem(LAST_PING);
    const kept = last ? (JSON.parse(last) as { base?: string; owner?: Owner }) : undefined;
    if (!kept?.owner || kept.base !== base) throw error;
    return kept.owner;
  }
}

/** Who the kept rows belong to: the deployment we talk to, the key's mode, seller and key. */
async function scopeOf(
  client: SlabdeskClient,
  queryClient: QueryClient,
  collection: string,
): Promise<string> {
  const ping = await pingOf(client, queryClient);
  const base = client.transport.resolve('/');
  return [
    `v${KEPT_FORMAT}`,
    collection,
    base,
    ping.api_version,
    ping.mode,
    ping.seller_id,
    ping.key_id,
  ].join('|');
}

async function firstOf<T extends { id: string; created_at?: string | undefined }>(
  pages: AsyncGenerator<Page<T>, void, undefined>,
): Promise<Fingerprint | undefined> {
  for await (const page of pages) {
    const row = page.rows[0];
    await pages.return(undefined);
    return row ? { id: row.id, createdAt: row.created_at } : undefined;
  }
  return undefined;
}

// The resources' overloads type rows by the fields asked for; here one walk serves any of them.
export type Pages = (options: object) => AsyncGenerator<Page<never>>;

/**
 * One collection's kept reads, every field: `collection` names its copy, `createdAtOf` reads a
 * row's `created_at` where its view has one.
 */
export function keptSource<T extends { id: string }>(
  client: SlabdeskClient,
  queryClient: QueryClient,
  collection: string,
  pages: Pages,
  createdAtOf: (row: T) => string | undefined,
  /** The fields the store's fingerprint reads (the key field and `created_at` where there is one). */
  probeFields: readonly string[] = ['id', 'created_at'],
): KeptSource<T> {
  return {
    collection,
    walk: (options) => pages({ limit: KEPT_PAGE_ROWS, ...options, whole: true }),
    probe: (signal) =>
      firstOf(
        pages({
          signal,
          limit: 1,
          lookahead: 0,
          fields: probeFields,
          priority: 'background',
        }) as AsyncGenerator<Page<{ id: string; created_at?: string }>, void, undefined>,
      ),
    scope: () => scopeOf(client, queryClient, collection),
    serverNow: () => client.transport.serverNow(),
    createdAtOf,
  };
}
