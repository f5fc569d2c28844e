import { Link } from 'react-router';
import { useViewsRead } from '../../../api/views/view-queries';
import { useQuery } from '@tanstack/react-query';
import { useApiClient } from '../../../api/api-context';
import { touchedListingsQuery } from '../../../api/rules/rules-queries';
import { TableViews } from '../../../components/table-views';
import { catalogueFilterPills } from './catalogue-filter-pills';
import { sortClick, useFilterParams, useVisibleColumns } from '../../../lib/saved-views';
import { useDeferredValue, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { paths } from '../../../shared/paths';
import { ListPageFrame, OtherMatches } from '../../../components/list-page-frame';
import { DataTable, withIdsSelected, type CardLayout } from '../../../components/data-table';
import { WriteLink } from '../../../components/write-actions';
import { EmptyState } from '../../../components/states';
import { Freshness } from '../../../components/freshness';
import {
  catalogueFacets,
  readCatalogueSearch,
  searchNarrowing,
  byRule,
  SORTABLE,
  type CatalogueSearch,
} from './catalogue-filters';
import { catalogueColumns } from './listing-columns';
import type { CatalogueRow } from './catalogue-row';
import { useCatalogue } from './use-catalogue';
import { CatalogueLoadState } from './catalogue-load-state';
import { CatalogueFilterFields } from './catalogue-filter-fields';
import { FiltersSheet } from '../../../components/filters-sheet';
import { NARROW_QUERY, useMediaQuery } from '../../../components/use-media-query';
import { marginColumn } from './margin-column';
import { useMarginBasis } from '../../../api/sales/use-margin-basis';
import { countOf } from '../../../lib/format';
import { noteSellerAsked } from '../../../api/kept/seller-asked';

/** On a phone, each row is a card: its title (year and set under it), then price, status, grade and cert. */
const CARDS: CardLayout = {
  title: 'title',
  fields: ['price', 'status', 'grade', 'cert'],
  // A title over two lines, its year and set, and the figures over two.
  height: 136,
};

/** A desk's row: the title's line and the year and set under it. */
const ROW_HEIGHT = 56;

/** One function for every render: the table's id list is memoised on it. */
const rowId = (row: CatalogueRow) => row.id;

/** The whole catalogue: walked with progress, then searched, filtered and sorted in the browser. */
export function ListingsPage() {
  const [params, updateParams] = useFilterParams();
  // The search writes the address once typing pauses, onto the params of then.
  const latestUpdate = useRef(updateParams);
  useLayoutEffect(() => {
    latestUpdate.current = updateParams;
  });
  const search = useMemo(() => readCatalogueSearch(params), [params]);
  const [text, setText] = useState(search.q ?? '');
  const urlTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => clearTimeout(urlTimer.current ?? undefined), []);
  const catalogue = useCatalogue();
  const { query, availability, afterRows } = catalogue;
  // Catalogue changes drawn in a transition: the page first, then the table.
  const shownCatalogue = useDeferredValue(
    useMemo(() => ({ rows: catalogue.rows, data: query.data }), [catalogue.rows, query.data]),
  );
  const { rows, data } = shownCatalogue;
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());

  const effective = useMemo(() => ({ ...search, q: text }), [search, text]);
  const client = useApiClient();
  const touched = useQuery({ ...touchedListingsQuery(client), enabled: search.rule !== undefined });
  const touchedIds = useMemo(
    () => (touched.data ? new Set(touched.data.listings.map((t) => t.listingId)) : undefined),
    [touched.data],
  );
  const shown = useMemo(
    () => byRule(searchNarrowing(rows, effective), effective.rule, touchedIds),
    [rows, effective, touchedIds],
  );
  // After the catalogue is drawn: these walks must not take its share of the bucket or its time.
  const basis = useMarginBasis(afterRows);
  const columns = useMemo(
    () => [
      ...catalogueColumns({
        player: rows.some((row) => row.player !== undefined),
        updated: rows.some((row) => row.updatedAt !== undefined),
      }),
      ...(basis.failed ? [] : [marginColumn(basis)]),
    ],
    [rows, basis],
  );
  const facets = useMemo(() => catalogueFacets(rows), [rows]);

  const narrow = useMediaQuery(NARROW_QUERY);
  const pills = catalogueFilterPills(search, text);
  const update = (patch: Partial<Record<keyof CatalogueSearch, string | undefined>>) =>
    updateParams(patch);
  const columnChoice = useVisibleColumns('listings', columns, params);

  const onSort = useMemo(
    () => sortClick(SORTABLE, search.sort, search.dir, updateParams),
    [search.sort, search.dir, updateParams],
  );
  const sort = useMemo(
    () => (search.sort ? { id: search.sort, direction: search.dir ?? 'asc' } : undefined),
    [search.sort, search.dir],
  );
  const selection = useMemo(
    () => ({
      selected,
      rowLabel: (row: CatalogueRow) => row.title ?? row.id,
      onChange: (ids: readonly string[], on: boolean) =>
        setSelected((current) => withIdsSelected(current, ids, on)),
    }),
    [selected],
  );

  const viewsRead = useViewsRead('listings');

  return (
    <ListPageFrame
      id="listings"
      title="Listings"
      actions={
        <>
          <button
            type="button"
            onClick={() => {
              noteSellerAsked();
              void query.refetch();
            }}
            disabled={query.isFetching || !data?.complete}
            // As wide as "Refreshing…", so the actions beside it stay put while a poll reads.
            className="refresh-button"
          >
            {query.isFetching && data?.complete ? 'Refreshing…' : 'Refresh'}
          </button>
          {selected.size > 0 && (
            <WriteLink className="button" to={paths.bulkEdit.to({ ids: [...selected] })}>
              Bulk edit the selection ({selected.size})
            </WriteLink>
          )}
          {selected.size > 0 && (
            <WriteLink className="button" to={paths.showCase.to([...selected])}>
              Bring these to the show ({selected.size})
            </WriteLink>
          )}
          {/* There from the first paint (disabled until every page is in): nothing below moves. */}
          {data?.complete && shown.length > 0 ? (
            <WriteLink className="button bulk-all" to={paths.bulkEdit.to({ search: params })}>
              Bulk edit all {shown.length} matching
            </WriteLink>
          ) : (
            <button type="button" className="button bulk-all" disabled>
              Bulk edit all matching
            </button>
          )}
          <WriteLink className="button primary" to={paths.newListing.to()}>
            New listing
          </WriteLink>
        </>
      }
      notice={
        <CatalogueLoadState query={query} availability={availability} rows={rows} shown={data} />
      }
      search={{
        id: 'catalogue-search',
        label: 'Search',
        placeholder: 'Title, player, cert or set',
        value: text,
        onChange: (value) => {
          // The table follows each keystroke; the URL follows once typing pauses.
          setText(value);
          if (urlTimer.current) clearTimeout(urlTimer.current);
          urlTimer.current = setTimeout(() => latestUpdate.current({ q: value }), 250);
        },
      }}
      filters={
        narrow ? (
          <FiltersSheet count={pills.filter((pill) => pill.id !== 'q').length}>
            <CatalogueFilterFields search={search} facets={facets} onChange={update} />
          </FiltersSheet>
        ) : (
          <CatalogueFilterFields search={search} facets={facets} onChange={update} />
        )
      }
      active={pills}
      onRemoveFilters={(patch, ids) => {
        if (ids.includes('q')) {
          if (urlTimer.current) clearTimeout(urlTimer.current);
          setText('');
        }
        update(patch);
      }}
      listWaits={!viewsRead}
      views={
        <TableViews
          table="listings"
          label="listings"
          params={params}
          columns={columns}
          choice={columnChoice}
          onChange={updateParams}
          onApply={(view) => setText(new URLSearchParams(view).get('q') ?? '')}
        />
      }
      summary={
        <>
          {!data
            ? 'Loading listings…'
            : data.failure && !data.complete
              ? `${shown.length} of the ${rows.length} listings read before loading stopped`
              : `${shown.length} of ${rows.length} listings${data.complete ? '' : ' so far'}`}
          {data && data.setAside.length > 0 && ` (${data.setAside.length} unreadable, left out)`}
          {selected.size > 0 && (
            <>
              {' '}
              · {selected.size} selected{' '}
              <button type="button" className="link-button" onClick={() => setSelected(new Set())}>
                Clear selection
              </button>
            </>
          )}
          {data?.complete && data.lastChanged !== undefined && (
            <> · last refresh brought {countOf(data.lastChanged, 'change')}</>
          )}
          {data?.complete && data.checkedAt !== undefined && (
            <>
              {' · '}
              <Freshness
                checkedAt={data.checkedAt}
                refreshing={query.isFetching}
                kept={data.origin === 'kept'}
              />
            </>
          )}
        </>
      }
      empty={
        data && rows.length === 0 && data.complete ? (
          <EmptyState title="No listings yet">
            <Link to={paths.newListing.to()}>List your first card</Link>
          </EmptyState>
        ) : data && shown.length === 0 ? (
          <EmptyState title="No listing matches these filters">
            {text.trim() && pills.length > 1 && (
              <OtherMatches
                count={
                  searchNarrowing(rows, { ...readCatalogueSearch(new URLSearchParams()), q: text })
                    .length
                }
                noun="listing"
                where="the search without the other filters"
                onShow={() =>
                  update(
                    Object.fromEntries(pills.filter((p) => p.id !== 'q').map((p) => [p.id, ''])),
                  )
                }
              />
            )}
          </EmptyState>
        ) : undefined
      }
    >
      {data && (
        <DataTable
          caption="Listings"
          rows={shown}
          columns={columnChoice.visible}
          getRowId={rowId}
          sort={sort}
          onSortChange={onSort}
          cards={CARDS}
          rowHeight={ROW_HEIGHT}
          selection={selection}
        />
      )}
    </ListPageFrame>
  );
}

export { ListingsPage as Component };
