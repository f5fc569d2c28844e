import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useApiClient } from '../api-context';
import { catalogueQuery } from '../listings/catalogue-query';
import { useOutboxItems, type SaleWrite } from '../outbox/outbox';
import { entryOfWrite } from './sale-tenders';
import type { LedgerEntry } from './show-api';
import { showQuery, showsQuery } from './show-queries';

/** A sale's receipt, from the ledger, or from this device's outbox while it waits to be sent. */
export type Receipt = Pick<
  LedgerEntry,
  'soldAt' | 'title' | 'certNumber' | 'grader' | 'priceCents' | 'discountCents' | 'tenders'
> & {
  /** The entry key's short form, as the buyer reads it: "R-1A2B3C4D". */
  number: string;
  showName: string | null;
  grade: string | null;
  /** Waiting in this device's outbox: not in the ledger yet. */
  waiting: boolean;
  /** Undone since (the ledger's word). */
  voided: boolean;
};

/** "R-1A2B3C4D": the first eight letters and digits of the entry key. */
export const receiptNumber = (entryKey: string): string =>
  `R-${entryKey
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(0, 8)
    .toUpperCase()}`;

/** One sale's receipt: the ledger's entry, else the sale as this device made it (offline). */
export function useShowReceipt(
  showKey: string,
  entryKey: string,
): { receipt: Receipt | undefined; pending: boolean } {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const page = useQuery(showQuery(client, showKey));
  const shows = useQuery(showsQuery(client));
  const catalogue = useQuery(catalogueQuery(client, queryClient));
  const write = useOutboxItems().find(
    (item): item is SaleWrite => item.kind === 'sell-at-show' && item.sale.key === entryKey,
  );
  const entry = page.data?.entries.find((e) => e.key === entryKey);
  const showName =
    page.data?.show.name ?? shows.data?.find((show) => show.key === showKey)?.name ?? null;
  const from = entry ?? (write && entryOfWrite(write));
  const card = catalogue.data?.rows.find((row) => row.id === from?.listingId)?.card;
  const receipt: Receipt | undefined = from && {
    ...from,
    number: receiptNumber(entryKey),
    showName,
    grade: card?.grade ?? null,
    waiting: !entry && write?.state !== 'done',
    voided: from.voided !== null,
  };
  return { receipt, pending: !receipt && page.isPending };
}
