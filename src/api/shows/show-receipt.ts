import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Tender } from '../../shared/show-tenders';
import { useApiClient } from '../api-context';
import { catalogueQuery } from '../listings/catalogue-query';
import { useOutboxItems, type SaleWrite } from '../outbox/outbox';
import { centsOf } from '../../shared/money';
import { tendersOfBody } from './sale-tenders';
import { showQuery, showsQuery } from './show-queries';

/** A sale's receipt, from the ledger, or from this device's outbox while it waits to be sent. */
export interface Receipt {
  /** The entry key's short form, as the buyer reads it: "R-1A2B3C4D". */
  number: string;
  showName: string | null;
  soldAt: string;
  title: string;
  certNumber: string | null;
  grader: string | null;
  grade: string | null;
  priceCents: number;
  discountCents: number;
  tenders: Tender[];
  /** Waiting in this device's outbox: not in the ledger yet. */
  waiting: boolean;
  /** Undone since (the ledger's word). */
  voided: boolean;
}

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
  const listingId = entry?.listingId ?? write?.listingId;
  const card = catalogue.data?.rows.find((row) => row.id === listingId)?.card;
  const common = {
    number: receiptNumber(entryKey),
    showName,
    grade: card?.grade ?? null,
  };
  let receipt: Receipt | undefined;
  if (entry) {
    receipt = {
      ...common,
      soldAt: entry.soldAt,
      title: entry.title,
      certNumber: entry.certNumber,
      grader: entry.grader,
      priceCents: entry.priceCents,
      discountCents: entry.discountCents,
      tenders: entry.tenders,
      waiting: false,
      voided: entry.voided !== null,
    };
  } else if (write) {
    receipt = {
      ...common,
      soldAt: write.sale.soldAt,
      title: write.sale.title,
      certNumber: write.sale.certNumber,
      grader: write.sale.grader,
      priceCents: centsOf(write.sale.price) ?? 0,
      discountCents: centsOf(write.sale.discount) ?? 0,
      tenders: tendersOfBody(write.sale),
      waiting: write.state !== 'done',
      voided: false,
    };
  }
  return { receipt, pending: !receipt && page.isPending };
}
