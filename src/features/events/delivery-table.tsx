import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { HubLogEntry } from '../../client/hub-messages';
import { useApiClient } from '../../api/api-context';
import { slabFactsQuery, slabName } from '../../api/listings/slab-facts';
import { TableHead } from '../../components/table-head';
import { FiguresIn, ShortDate } from '../../components/figure';
import { deliveryWords, productPrice } from './delivery-words';

const OUTCOME_WORDS = {
  applied: 'Shown on every page',
  duplicate: 'Already shown (sent again)',
  rejected: 'Ignored: it could not be verified',
} as const;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The listing a body is about: a product's id, or an order line's listing. */
function listingIdOf(payload: unknown): string | undefined {
  if (!isRecord(payload)) return undefined;
  const line = Array.isArray(payload.line_items) ? (payload.line_items[0] as unknown) : undefined;
  if (isRecord(line) && typeof line.product_id === 'string') return line.product_id;
  return typeof payload.id === 'string' && 'variants' in payload ? payload.id : undefined;
}

/**
 * The deliveries, newest first, each as what happened to which slab; the topic, event id and the
 * body are one click away under "Details".
 */
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
  return (
    <table className="simple-table stack-table">
      <caption className="visually-hidden">Notices from the marketplace, newest first</caption>
      <TableHead columns={['Received', 'What happened', 'Outcome']} />
      <tbody>
        {entries.map((entry, index) => {
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
          const about = words.about;
          return (
            <tr key={`${entry.at}-${entry.eventId ?? ''}-${index}`}>
              <td className="stack-title">
                <ShortDate iso={entry.at} time />
              </td>
              <td data-label="What happened">
                <div>
                  <strong>{words.what}</strong>
                  {about && (
                    <>
                      :{' '}
                      <span className="delivery-about">
                        <FiguresIn text={about} />
                      </span>
                    </>
                  )}
                  {entry.attempt && entry.attempt > 1 ? ` (sent ${entry.attempt} times)` : ''}
                  <details>
                    <summary>Details</summary>
                    <dl className="facts">
                      <dt>Topic</dt>
                      <dd>
                        <code>{entry.topic ?? 'not given'}</code>
                      </dd>
                      <dt>Event id</dt>
                      <dd>
                        <code>{entry.eventId ?? 'not given'}</code>
                      </dd>
                    </dl>
                    {body === undefined ? (
                      <p>The body was not kept (it arrived while no dashboard tab was open).</p>
                    ) : (
                      <pre className="payload">{JSON.stringify(body, null, 2)}</pre>
                    )}
                  </details>
                </div>
              </td>
              <td data-label="Outcome">
                {OUTCOME_WORDS[entry.outcome]}
                {entry.reason ? ` (${entry.reason.replace(/_/g, ' ')})` : ''}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
