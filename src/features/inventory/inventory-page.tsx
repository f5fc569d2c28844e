import { Link } from 'react-router';
import { useViewsRead } from '../../api/views/view-queries';
import { TableViews } from '../../components/table-views';
import { useFilterParams, useVisibleColumns } from '../../lib/saved-views';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, type ReactNode } from 'react';
import type { InventoryItem } from '../../client';
import { FieldValue } from '../../components/field-value';
import { RecordField } from '../../components/record-field';
import { paths } from '../../shared/paths';
import { ListPageFrame, OtherMatches } from '../../components/list-page-frame';
import { DataTable, type Column } from '../../components/data-table';
import { ErrorBanner, QueryErrorBanner } from '../../components/error-banner';
import { EmptyState } from '../../components/states';
import { useApiClient } from '../../api/api-context';
import { mayRead, REQUIRED_SCOPES } from '../../api/required-scopes';
import { pingQuery } from '../../api/connection-query';
import { wholeCatalogueQuery } from '../../api/listings/catalogue-query';
import { ordersQuery } from '../../api/orders/order-queries';
import { cardsNamedByOrders } from '../../api/sales/sold-listings';
import { formatMoney, humanize } from '../../lib/format';
import { FiguresIn } from '../../components/figure';
import {
  canListFromInventory,
  useInventory,
  neverListedIds,
  type InventoryRow,
} from '../../api/inventory/inventory-queries';

/** One field of the card as the inventory view gave it: the value, or why it is not there. */
function ItemField<K extends keyof InventoryItem & string>({
  item,
  field,
  children = (value) => String(value),
}: {
  item: InventoryItem;
  field: K;
  children?: (value: NonNullable<InventoryItem[K]>) => ReactNode;
}) {
  return (
    <FieldValue
      value={item[field] ?? undefined}
      unreadable={item.unreadable?.includes(field) ?? false}
      notShown="—"
    >
      {(value) => children(value as NonNullable<InventoryItem[K]>)}
    </FieldValue>
  );
}

/** The columns; `neverListed` is undefined until the listings are read. */
const columnsFor = (neverListed: ReadonlySet<string> | undefined): Column<InventoryRow>[] => [
  {
    id: 'player',
    header: 'Player',
    width: '13%',
    cell: (row) => (
      <ItemField item={row.item} field="svc_player">
        {(v) => v || '—'}
      </ItemField>
    ),
  },
  {
    id: 'card',
    header: 'Card',
    width: '19%',
    cell: (row) => (
      <>
        <ItemField item={row.item} field="svc_year" />{' '}
        <ItemField item={row.item} field="svc_card_set" />
      </>
    ),
  },
  {
    id: 'grade',
    header: 'Grade',
    width: '8%',
    cell: (row) => (
      <>
        <ItemField item={row.item} field="svc_grader" />{' '}
        <ItemField item={row.item} field="svc_grade" />
      </>
    ),
  },
  {
    id: 'cert',
    header: 'Cert',
    width: '10%',
    cell: (row) => (
      <ItemField item={row.item} field="svc_cert_number">
        {(cert) => (
          <Link
            to={paths.listings.to(new URLSearchParams({ q: cert }))}
            aria-label={`Listings of cert ${cert}`}
          >
            <code>{cert}</code>
          </Link>
        )}
      </ItemField>
    ),
  },
  {
    id: 'cost',
    header: 'Cost',
    width: '8%',
    align: 'right',
    cell: (row) => (
      <ItemField item={row.item} field="cost">
        {formatMoney}
      </ItemField>
    ),
  },
  {
    id: 'available',
    header: 'Available',
    width: '8%',
    cell: (row) =>
      row.level ? (
        <RecordField record={row.level} path="available" value={row.level.available ?? undefined}>
          {(available) => (available ? 'Yes' : 'No')}
        </RecordField>
      ) : (
        '—'
      ),
  },
  {
    id: 'reason',
    header: 'Why not',
    width: '22%',
    cell: (row) =>
      row.level && row.level.available === 0 ? (
        <span className="figure-text" title={row.level.svc_unavailable_reason ?? undefined}>
          {row.level.svc_reason_detail ? (
            <FiguresIn text={row.level.svc_reason_detail} />
          ) : (
            humanize(row.level.svc_unavailable_reason)
          )}
        </span>
      ) : (
        ''
      ),
  },
  {
    id: 'action',
    header: 'Relist',
    width: '12%',
    cell: (row) =>
      neverListed && canListFromInventory(row, neverListed) ? (
        <Link
          to={paths.newListing.to({ inventoryItemId: row.item.id })}
          aria-label={`List ${row.item.svc_player ?? ''} ${row.item.svc_cert_number ?? row.item.id}`}
        >
          List it
        </Link>
      ) : neverListed?.has(row.item.id) ? (
        'Never listed, cannot be listed'
      ) : row.level ? (
        // What the level does not show is marked, never read as listed or as gone.
        <RecordField record={row.level} path="available" value={row.level.available ?? undefined}>
          {(available) =>
            available === 0 ? (
              <RecordField
                record={row.level!}
                path="svc_can_reactivate"
                value={row.level!.svc_can_reactivate ?? undefined}
              >
                {(can) => (can ? 'Can be relisted' : 'Gone for good')}
              </RecordField>
            ) : (
              'Listed'
            )
          }
        </RecordField>
      ) : (
        'Listed'
      ),
  },
];

/** Cards never listed, from kept listings and orders (no walk of its own); `unknown`: why not. */
function useNeverListed(rows: readonly InventoryRow[] | undefined): {
  ids: ReadonlySet<string> | undefined;
  unknown: string | undefined;
} {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const ping = useQuery(pingQuery(client));
  const scopes = ping.data?.scopes;
  const canListings = ping.isSuccess && mayRead(scopes, 'listings');
  const canOrders = ping.isSuccess && mayRead(scopes, 'orders');
  const listings = useQuery({ ...wholeCatalogueQuery(client, queryClient), enabled: canListings });
  const orders = useQuery({ ...ordersQuery(client, queryClient), enabled: canOrders });
  // Without the orders (no scope, or not readable) the listings alone still tell.
  const ordersSettled = !canOrders || orders.isSuccess || orders.isError;
  const orderRows = orders.data?.rows;
  const listingRows = listings.data?.rows;
  const ids = useMemo(
    () =>
      rows && listingRows && ordersSettled
        ? neverListedIds(rows, listingRows, cardsNamedByOrders(orderRows ?? []))
        : undefined,
    [rows, listingRows, orderRows, ordersSettled],
  );
  const unknown =
    ping.isSuccess && !canListings
      ? `Which cards were never listed needs the scope ${REQUIRED_SCOPES.listings}.`
      : listings.isError || ping.isError
        ? 'Which cards were never listed cannot be told: your listings could not be read.'
        : undefined;
  return { ids, unknown };
}

/** Every card, listed or not, with its availability and whether it can be (re)listed. */
export function InventoryPage() {
  const [params, updateParams] = useFilterParams();
  const q = params.get('q') ?? '';
  const onlyUnlisted = params.get('unlisted') === 'yes';
  const query = useInventory();
  const neverListed = useNeverListed(query.data?.rows);
  const searched = useMemo(() => {
    const terms = q.toLowerCase().split(/\s+/).filter(Boolean);
    return (query.data?.rows ?? []).filter((row) => terms.every((t) => row.search.includes(t)));
  }, [query.data, q]);
  const shown = useMemo(() => {
    if (onlyUnlisted && !neverListed.ids) return [];
    return searched.filter((row) => !onlyUnlisted || neverListed.ids?.has(row.item.id));
  }, [searched, onlyUnlisted, neverListed.ids]);

  const update = (key: string, value: string) => updateParams({ [key]: value });
  const columns = useMemo(() => columnsFor(neverListed.ids), [neverListed.ids]);
  // Drawn once the columns are final, so rows never move when the "ever listed" column comes.
  const neverListedSettled = neverListed.ids !== undefined || neverListed.unknown !== undefined;
  const columnChoice = useVisibleColumns('inventory', columns, params);

  const viewsRead = useViewsRead('inventory');

  return (
    <ListPageFrame
      id="inventory"
      title="Inventory"
      intro="Every card you hold, listed or not, with why it is unavailable."
      search={{
        id: 'inventory-search',
        label: 'Search',
        placeholder: 'Player, cert or set',
        value: q,
        onChange: (value) => update('q', value),
      }}
      filters={
        <div className="field field-checkbox">
          <input
            id="inventory-unlisted"
            type="checkbox"
            checked={onlyUnlisted}
            aria-describedby="inventory-unlisted-hint"
            onChange={(e) => update('unlisted', e.target.checked ? 'yes' : '')}
          />
          <label htmlFor="inventory-unlisted">Only cards never listed</label>
          <p className="field-hint" id="inventory-unlisted-hint">
            Cards that none of your listings is for. A lot counts only its first card.
          </p>
        </div>
      }
      active={[
        ...(q.trim() ? [{ id: 'q', label: 'Search', value: q.trim() }] : []),
        ...(onlyUnlisted ? [{ id: 'unlisted', label: 'Cards', value: 'never listed' }] : []),
      ]}
      onRemoveFilters={updateParams}
      listWaits={!viewsRead}
      views={
        <TableViews
          table="inventory"
          label="cards"
          params={params}
          columns={columns}
          choice={columnChoice}
          onChange={updateParams}
        />
      }
      problems={
        <>
          <QueryErrorBanner query={query} of="inventory" />
          {query.data?.stopped && (
            <ErrorBanner
              error={query.data.stopped}
              title="Inventory is incomplete: the API's pages did not end"
              onRetry={() => void query.refetch()}
            />
          )}
        </>
      }
      loading={
        query.isPending || (query.data && !neverListedSettled) ? 'Loading inventory…' : undefined
      }
      summary={
        query.data && onlyUnlisted && !neverListed.ids
          ? (neverListed.unknown ?? 'Reading your listings to find the cards never listed…')
          : query.data && (
              <>
                {shown.length} of {query.data.rows.length} cards
                {query.data.setAside.length > 0 &&
                  ` (${query.data.setAside.length} unreadable, left out)`}
              </>
            )
      }
      empty={
        query.data && neverListedSettled && shown.length === 0 ? (
          <EmptyState title="No card matches">
            {onlyUnlisted && q.trim() && (
              <OtherMatches
                count={searched.length}
                noun="card"
                where="once cards listed before are included"
                onShow={() => update('unlisted', '')}
              />
            )}
          </EmptyState>
        ) : undefined
      }
    >
      {query.data && neverListedSettled && (
        <DataTable
          caption="Inventory"
          rows={shown}
          columns={columnChoice.visible}
          getRowId={(row) => row.item.id}
          cards={{
            title: 'player',
            fields: ['card', 'grade', 'cert', 'reason', 'action'],
            height: 120,
          }}
        />
      )}
    </ListPageFrame>
  );
}

export { InventoryPage as Component };
