import { Link } from 'react-router';
import { useViewsRead } from '../../api/views/view-queries';
import { TableViews } from '../../components/table-views';
import { sortClick, useFilterParams, useVisibleColumns } from '../../lib/saved-views';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useDeferredValue, useEffect, useMemo, useState } from 'react';
import * as z from 'zod/mini';
import { awaitsShipment, shipmentWords } from '../../api/orders/shipment';
import { ORDER_SORTS, sortOrders } from './order-sort';
import { paths } from '../../shared/paths';
import { ORDER_STATUS_FILTERS, type Order } from '../../client';
import { ListPageFrame, OtherMatches } from '../../components/list-page-frame';
import { DataTable, type CardLayout, type Column } from '../../components/data-table';
import { QueryErrorBanner } from '../../components/error-banner';
import { EmptyState } from '../../components/states';
import { Freshness } from '../../components/freshness';
import { fieldOf, RecordField } from '../../components/record-field';
import { useApiClient } from '../../api/api-context';
import { useLiveUpdatesOff, usePollInterval } from '../../api/live/live-context';
import { countOf, relativeTime } from '../../lib/format';
import { Money, ShortDate } from '../../components/figure';
import { OrderLink } from '../../components/order-link';
import {
  isOrderStage,
  ORDER_STAGES,
  orderStage,
  stageLabel,
  type OrderStage,
} from '../../api/orders/order-stage';
import { slabFactsQuery, type SlabFactsByListing } from '../../api/listings/slab-facts';
import { isNewSale, markOrdersSeen, readSeenOrders } from '../../api/orders/seen-orders';
import { SlabLine } from './slab-line';
import { matchesSearch, searchWords } from './order-search';
import './orders.css';
import { orderListQuery, orderStatusFilterOf } from '../../api/orders/order-queries';
import { OrdersCsvButton } from './orders-csv-button';
import { SelectField } from '../../components/options';

const OrdersSearch = z.object({
  status: z.enum(ORDER_STATUS_FILTERS),
  q: z.catch(z.string(), ''),
  listing: z.catch(z.string(), ''),
  sort: z.catch(z.enum(ORDER_SORTS), 'deadline'),
  dir: z.catch(z.enum(['asc', 'desc']), 'asc'),
});

const STATUS_CHOICES = [
  ['open', 'Open (sold, in progress)'],
  ['closed', 'Closed (paid out or delivered)'],
  ['cancelled', 'Cancelled'],
  ['any', 'Any'],
] as const;

const POLL_MS = 5000;
/** An order code: two letters, a hyphen, six letters or digits. */
const ORDER_CODE = /^[A-Z]{2}-[A-Z0-9]{6}$/;

/** What a row needs beyond the order: the kept card facts and which sales are new. */
interface RowContext {
  slabs: SlabFactsByListing | undefined;
  isNew: (order: Order) => boolean;
}

const slabOf = (order: Order, context: RowContext) => {
  const listingId = order.line_items?.[0]?.product_id;
  return listingId ? context.slabs?.get(listingId) : undefined;
};

const columnsFor = (context: RowContext): Column<Order>[] => [
  {
    id: 'code',
    header: 'Order',
    width: '11%',
    cell: (order) => <OrderLink order={order} />,
  },
  {
    id: 'title',
    header: 'Card',
    width: '34%',
    cell: (order) => (
      <SlabLine order={order} slab={slabOf(order, context)} isNew={context.isNew(order)} />
    ),
  },
  {
    id: 'sold',
    header: 'Sold',
    width: '9%',
    sortable: true,
    cell: (order) => (
      <RecordField {...fieldOf(order, 'svc_sold_at')}>{(at) => <ShortDate iso={at} />}</RecordField>
    ),
  },
  {
    id: 'total',
    header: 'Total',
    sortable: true,
    width: '10%',
    align: 'right',
    cell: (order) => (
      <RecordField {...fieldOf(order, 'total_price')}>
        {(amount) => <Money amount={amount} />}
      </RecordField>
    ),
  },
  {
    id: 'status',
    header: 'Stage',
    width: '11%',
    cell: (order) => stageLabel(orderStage(order)),
  },
  {
    id: 'deadline',
    header: 'To the hub',
    width: '25%',
    sortable: true,
    cell: (order) => {
      if (!awaitsShipment(order)) {
        return (
          <RecordField
            record={order}
            path="svc_seller_shipment.status"
            value={shipmentWords(order)}
          >
            {(words) => words}
          </RecordField>
        );
      }
      const shipBy = order.svc_seller_shipment?.ship_by;
      return (
        <RecordField record={order} path="svc_seller_shipment.ship_by" value={shipBy}>
          {(at) =>
            at === null ? (
              'To ship'
            ) : (
              <span>
                Ship by <ShortDate iso={at} time />{' '}
                <span className="muted">· {relativeTime(at)}</span>
              </span>
            )
          }
        </RecordField>
      );
    },
  },
];

/** The table's stable props: a new one each render would redraw every row on every render. */
const orderId = (order: Order) => order.id;
const CARDS: CardLayout = {
  title: 'title',
  fields: ['code', 'total', 'status', 'deadline'],
  height: 150,
};

/** Orders under a status filter, searchable by code; open orders refresh on their own. */
export function OrdersPage() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const [params, update] = useFilterParams();
  const search = OrdersSearch.parse({
    status: orderStatusFilterOf(params.get('status')),
    q: params.get('q') ?? '',
    listing: params.get('listing') ?? '',
    sort: params.get('sort') ?? 'deadline',
    dir: params.get('dir') ?? 'asc',
  });
  const stageParam = params.get('stage');
  const stage: OrderStage | undefined = isOrderStage(stageParam) ? stageParam : undefined;
  const poll = usePollInterval(POLL_MS);
  const liveOff = useLiveUpdatesOff();
  const query = useQuery({
    ...orderListQuery(client, queryClient, search.status),
    refetchInterval: search.status === 'open' || search.status === 'any' ? poll : false,
  });
  // Data that lands (orders, card facts) is drawn in an interruptible render, not one long task;
  // never another status's orders under this one while it is drawn.
  const landed = useMemo(
    () => ({ status: search.status, data: query.data }),
    [search.status, query.data],
  );
  const deferred = useDeferredValue(landed);
  const data = deferred.status === search.status ? deferred.data : undefined;
  const slabs = useDeferredValue(useQuery(slabFactsQuery(client, queryClient)).data);
  // What the seller had seen when this visit began: new sales stay marked for the whole visit.
  const [seen] = useState(readSeenOrders);
  const context = useMemo<RowContext>(
    () => ({ slabs, isNew: (order) => isNewSale(order, seen) }),
    [slabs, seen],
  );
  const columns = useMemo(() => columnsFor(context), [context]);
  const sort = useMemo(
    () => ({ id: search.sort, direction: search.dir }),
    [search.sort, search.dir],
  );
  const matches = useMemo(() => {
    const words = searchWords(search.q);
    return (order: Order) =>
      // An order whose code or line is not shown matches no search by them.
      matchesSearch(order, slabOf(order, context), words) &&
      (!stage || orderStage(order) === stage) &&
      (!search.listing ||
        (order.line_items ?? []).some((item) => item.product_id === search.listing));
  }, [search.q, search.listing, stage, context]);
  const shown = useMemo(
    () => sortOrders((data?.rows ?? []).filter(matches), search.sort, search.dir),
    [data, matches, search.sort, search.dir],
  );
  // Nothing under this status: the search's matches under any status, to offer them.
  const elsewhere = useQuery({
    ...orderListQuery(client, queryClient, 'any'),
    enabled: data !== undefined && shown.length === 0 && search.status !== 'any',
  });
  const newCount = shown.filter(context.isNew).length;
  // Shown is seen: the next visit no longer marks these.
  useEffect(() => {
    if (data) markOrdersSeen(shown.map((order) => order.id));
  }, [data, shown]);
  const columnChoice = useVisibleColumns('orders', columns, params);

  const viewsRead = useViewsRead('orders');

  return (
    <ListPageFrame
      id="orders"
      title="Orders"
      actions={
        <>
          <Link to={paths.shipQueue.to()}>Ship-to-hub queue</Link>
          {data && <OrdersCsvButton orders={shown} name={search.status} />}
        </>
      }
      search={{
        id: 'orders-search',
        label: 'Search by player, card, cert or order code',
        placeholder: 'Trout, PSA 10, SL-7K2Q9D',
        value: search.q,
        onChange: (q) => update({ q }),
      }}
      filters={
        <>
          <SelectField
            id="orders-status"
            label="Status"
            value={search.status}
            options={STATUS_CHOICES}
            onChange={(status) => update({ status })}
          />
          <SelectField
            id="orders-stage"
            label="Stage"
            value={stage ?? ''}
            any="Every stage"
            options={ORDER_STAGES.map((one) => [one.stage, one.label])}
            onChange={(stage) => update({ stage })}
          />
        </>
      }
      active={[
        ...(search.q.trim() ? [{ id: 'q', label: 'Search', value: search.q.trim() }] : []),
        ...(stage ? [{ id: 'stage', label: 'Stage', value: stageLabel(stage) }] : []),
        ...(search.listing ? [{ id: 'listing', label: 'Listing', value: search.listing }] : []),
      ]}
      onRemoveFilters={update}
      listWaits={!viewsRead}
      views={
        <TableViews
          table="orders"
          label="orders"
          params={params}
          columns={columns}
          choice={columnChoice}
          onChange={update}
        />
      }
      problems={<QueryErrorBanner query={query} of="orders" />}
      loading={
        data === undefined && (query.isPending || query.data) ? 'Loading orders…' : undefined
      }
      summary={
        data && (
          <>
            {shown.length} of {data.rows.length} orders
            {newCount > 0 && ` · ${countOf(newCount, 'new sale')}`}
            {(search.status === 'open' || search.status === 'any') &&
              poll !== false &&
              liveOff &&
              ' · checking for changes every 5 s while live updates are off'}
            {data.checkedAt !== undefined && (
              <>
                {' · '}
                <Freshness checkedAt={data.checkedAt} refreshing={query.isFetching} />
              </>
            )}
          </>
        )
      }
      empty={
        data && shown.length === 0 ? (
          <EmptyState
            title={
              data.rows.length === 0
                ? `No ${search.status === 'any' ? '' : `${search.status} `}orders here`
                : `No ${search.status === 'any' ? '' : `${search.status} `}order matches this search`
            }
          >
            {elsewhere.data && (
              <OtherMatches
                count={elsewhere.data.rows.filter(matches).length}
                noun="order"
                where="under any status"
                onShow={() => update({ status: 'any' })}
              />
            )}
            {ORDER_CODE.test(search.q.trim().toUpperCase()) && (
              <p>
                It may be under another status:{' '}
                <Link to={paths.order.to(search.q.trim().toUpperCase())}>
                  open order {search.q.trim().toUpperCase()}
                </Link>
              </p>
            )}
          </EmptyState>
        ) : undefined
      }
    >
      {data && (
        <DataTable
          caption="Orders"
          rows={shown}
          columns={columnChoice.visible}
          getRowId={orderId}
          height={520}
          rowHeight={72}
          cards={CARDS}
          sort={sort}
          onSortChange={sortClick(ORDER_SORTS, search.sort, search.dir, update)}
        />
      )}
    </ListPageFrame>
  );
}

export { OrdersPage as Component };
