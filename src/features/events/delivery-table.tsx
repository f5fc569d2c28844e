import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { HubLogEntry } from '../../client/hub-messages';
import { useApiClient } from '../../api/api-context';
import { slabFactsQuery, slabName } from '../../api/listings/slab-facts';
import { DataTable, type Column } from '../../components/data-table';
import { FiguresIn, ShortDate } from '../../components/figure';
import { deliveryWords, listingIdOf, productPrice, type DeliveryWords } from './delivery-words';
import { Fact } from '../../components/fact';

const OUTCOME_WORDS = {
  applied: 'Shown on every page',
  duplicate: 'Already shown (sent again)',
  rejected: 'Ignored: it could not be verified',
} as const;

/** A delivery as a row: the entry, its body (kept or carried) and its words. */
interface DeliveryRow {
  id: string;
  entry: HubLogEntry;
  body: unknown;
  words: DeliveryWords;
}

const COLUMNS: readonly Column<DeliveryRow>[] = [
  { id: 'received', header: 'Received', cell: ({ entry }) => <ShortDate iso={entry.at} time /> },
  {
    id: 'what',
    header: 'What happened',
    cell: ({ entry, body, words }) => (
      <div>
        <strong>{words.what}</strong>
        {words.about && (
          <>
            :{' '}
            <span className="delivery-about">
              <FiguresIn text={words.about} />
            </span>
          </>
        )}
        {entry.attempt && entry.attempt > 1 ? ` (sent ${entry.attempt} times)` : ''}
        <details>
          <summary>Details</summary>
          <dl className="facts">
            <Fact label="Topic">
              <code>{entry.topic ?? 'not given'}</code>
            </Fact>
            <Fact label="Event id">
              <code>{entry.eventId ?? 'not given'}</code>
            </Fact>
          </dl>
          {body === undefined ? (
            <p>The body was not kept (it arrived while no dashboard tab was open).</p>
          ) : (
            <pre className="payload">{JSON.stringify(body, null, 2)}</pre>
          )}
        </details>
      </div>
    ),
  },
  {
    id: 'outcome',
    header: 'Outcome',
    cell: ({ entry }) => (
      <>
        {OUTCOME_WORDS[entry.outcome]}
        {entry.reason ? ` (${entry.reason.replace(/_/g, ' ')})` : ''}
      </>
    ),
  },
];

/** The deliveries, newest first, in words; topic, event id and body under "Details". */
export function DeliveryTable({
  entries,
  payloads,
}: {
  /** Newest first. */
  entries: readonly HubLogEntry[];
  payloads: Readonly<Record<string, unknown>>;
}) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const slabs = useQuery(slabFactsQuery(client, queryClient)).data;
  const bodyOf = (entry: HubLogEntry) =>
    entry.payload ?? (entry.eventId ? payloads[entry.eventId] : undefined);
  // Each delivery with its words: the same listing's delivery before it gives the price it had.
  const rows = entries.map((entry, index): DeliveryRow => {
    const body = bodyOf(entry);
    // The same listing's delivery before this one (older entries come later in the list).
    const listingId = listingIdOf(body);
    const older = entries
      .slice(index + 1)
      .map(bodyOf)
      .find((one) => listingId !== undefined && listingIdOf(one) === listingId);
    const slab = listingId ? slabs?.get(listingId) : undefined;
    const knownName = slab ? slabName(slab) : undefined;
    const words = deliveryWords(entry.topic, body, {
      ...(older === undefined ? {} : { previousPrice: productPrice(older) }),
      ...(knownName === undefined ? {} : { knownName }),
    });
    return { id: `${entry.at}-${entry.eventId ?? ''}-${index}`, entry, body, words };
  });
  return (
    <DataTable
      caption="Notices from the marketplace, newest first"
      rows={rows}
      columns={COLUMNS}
      getRowId={(row) => row.id}
      windowed={false}
    />
  );
}
