import { Link } from 'react-router';
import { useFilterParams } from '../../lib/saved-views';
import { useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  findSlab,
  slabDetail,
  slabFactsOf,
  useSlabFactsForRows,
  slabLabel,
  slabName,
  type SlabFactsByListing,
} from '../../api/listings/slab-facts';
import { catalogueQuery } from '../../api/listings/catalogue-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { ListPageFrame } from '../../components/list-page-frame';
import { ErrorBanner } from '../../components/error-banner';
import { Loading } from '../../components/states';
import {
  ACTIVITY_CSV_PATH,
  activitySearch,
  browserZone,
  ActivityUnavailable,
  type ActivityEntry,
  THIS_COMPUTER,
  type ActivityFilters,
} from '../../api/activity/activity-api';
import { activityPageQuery } from '../../api/activity/activity-queries';
import { serverUrl } from '../../api/server-call';
import { actionWords, changeLines, outcomeWords, personWords } from '../../lib/describe-change';
import { useApiClient } from '../../api/api-context';
import { paths } from '../../shared/paths';
import './activity.css';
import { DataTable, type Column } from '../../components/data-table';
import { FiguresIn, ShortDate } from '../../components/figure';
import { Fact } from '../../components/fact';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The filters in the address: what a seller bookmarks or shares. */
function filtersOf(params: URLSearchParams): ActivityFilters {
  const day = params.get('day') ?? '';
  return {
    person: params.get('person')?.trim() || undefined,
    listing: params.get('listing')?.trim() || undefined,
    day: DAY.test(day) ? day : undefined,
  };
}

/** Who changed what through this server, newest first, filtered, with a CSV download. */
export function ActivityPage() {
  const client = useApiClient();
  const [params, update] = useFilterParams();
  const filters = filtersOf(params);
  // The pages shown, by the entry id each starts after (the newest first); new filters start over.
  const [older, setOlder] = useState<{ filters: string; cursors: number[] }>({
    filters: '',
    cursors: [],
  });
  const cursors = older.filters === params.toString() ? older.cursors : [];
  const query = useQuery(activityPageQuery(client, filters, undefined));
  const last = useQuery(activityPageQuery(client, filters, cursors.at(-1)));
  const olderPages = useQueries({
    queries: cursors.map((before) => activityPageQuery(client, filters, before)),
  });
  const entries = [query.data, ...olderPages.map((page) => page.data)].flatMap(
    (page) => page?.entries ?? [],
  );
  const people = query.data?.people ?? [];
  const nextBefore = last.data?.nextBefore ?? null;
  const unavailable = query.error instanceof ActivityUnavailable;
  const filtered = Boolean(filters.person || filters.listing || filters.day);
  const queryClient = useQueryClient();
  const { slabs, ready: namesReady } = useSlabFactsForRows();
  const columns = useMemo(() => activityColumns(slabs), [slabs]);
  const [cardProblem, setCardProblem] = useState<string>();
  // The card the address names, by its name: never the listing id, which is under "Details".
  const cardText = (filters.listing && slabLabel(slabs?.get(filters.listing))) || '';
  // The card's name arrives with the kept catalogue: filled in unless the seller typed already.
  const cardInput = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const input = cardInput.current;
    if (input && cardText && !input.value) input.value = cardText;
  }, [cardText]);

  return (
    <ListPageFrame
      id="activity"
      title="Activity"
      actions={
        !unavailable && (
          <a
            href={serverUrl(
              client,
              ACTIVITY_CSV_PATH,
              activitySearch(filters, { tz: browserZone() ?? 'UTC' }),
            )}
            download
          >
            Download CSV
          </a>
        )
      }
      intro="Every change made through this dashboard: who made it, when, what it changed and whether the marketplace took it."
      // A new address (back, a link, Clear) starts the fields again from it.
      filtersKey={params.toString()}
      filtersLabel="Filter the activity"
      onFiltersSubmit={async (element) => {
        const form = new FormData(element);
        const text = (name: string) => String(form.get(name) ?? '').trim();
        const card = text('card');
        // Asked before the kept catalogue is in: the lookup waits for it.
        let known = slabs;
        if (card && !known) {
          try {
            known = slabFactsOf(await queryClient.fetchQuery(catalogueQuery(client, queryClient)));
          } catch {
            setCardProblem('Your catalogue could not be read to find the card: try again.');
            return;
          }
        }
        // A card the address already names stays, even when the kept catalogue no longer has it.
        const lookup = card === cardText ? { found: filters.listing } : findSlab(card, known);
        if (card && !lookup.found) {
          setCardProblem(
            'matches' in lookup && lookup.matches > 1
              ? `${lookup.matches} cards match “${card}”: pick one from the list or add the grade or cert.`
              : `No card matches “${card}”: type its title, player or cert number.`,
          );
          return;
        }
        setCardProblem(undefined);
        update({ person: text('person'), listing: lookup.found ?? '', day: text('day') });
      }}
      filters={
        <>
          <div className="field">
            <label htmlFor="activity-person">Person</label>
            <input
              id="activity-person"
              name="person"
              list="activity-people"
              defaultValue={filters.person ?? ''}
              autoComplete="off"
            />
            <datalist id="activity-people">
              <option value={THIS_COMPUTER} />
              {people.map((name) => (
                <option key={name} value={name} />
              ))}
            </datalist>
          </div>
          <div className="field">
            <label htmlFor="activity-card">Card</label>
            <input
              id="activity-card"
              name="card"
              list="activity-cards"
              defaultValue={cardText}
              ref={cardInput}
              autoComplete="off"
              aria-invalid={cardProblem ? true : undefined}
              aria-describedby={cardProblem ? 'activity-card-problem' : undefined}
            />
            <datalist id="activity-cards">
              {[...new Set([...(slabs?.values() ?? [])].map((facts) => slabLabel(facts)))].map(
                (label) => label && <option key={label} value={label} />,
              )}
            </datalist>
            {cardProblem && (
              <p id="activity-card-problem" className="field-error" role="alert">
                {cardProblem}
              </p>
            )}
          </div>
          <div className="field">
            <label htmlFor="activity-day">Day</label>
            <input id="activity-day" name="day" type="date" defaultValue={filters.day ?? ''} />
          </div>
          <button type="submit">Show</button>
          {filtered && (
            <button
              type="button"
              className="link-button"
              onClick={() => update({ person: '', listing: '', day: '' })}
            >
              Clear filters
            </button>
          )}
        </>
      }
      problems={
        unavailable ? (
          <p className="banner banner-info" role="note">
            This server keeps no activity log, so there is nothing to show here.
          </p>
        ) : (
          <ErrorBanner
            error={query.error}
            title="The activity could not be loaded"
            onRetry={() => void query.refetch()}
          />
        )
      }
      loading={query.isPending ? 'Loading the activity…' : undefined}
    >
      {query.isSuccess && query.data.entries.length === 0 && (
        <p>{filtered ? 'No change matches these filters.' : 'No change has been made yet.'}</p>
      )}
      {query.isSuccess && query.data.entries.length > 0 && !namesReady && (
        <Loading label="Loading the cards…" />
      )}
      {query.isSuccess && query.data.entries.length > 0 && namesReady && (
        <DataTable
          caption="Changes, newest first"
          className="activity-table"
          scrollsSideways
          windowed={false}
          rows={entries}
          getRowId={(entry) => String(entry.id)}
          columns={columns}
        />
      )}
      {nextBefore !== null && (
        <p>
          <button
            type="button"
            disabled={last.isFetching}
            onClick={() =>
              setOlder({ filters: params.toString(), cursors: [...cursors, nextBefore] })
            }
          >
            Load older
          </button>
        </p>
      )}
      {olderPages.some((page) => page.isError) && (
        <p role="alert">Some older changes could not be loaded.</p>
      )}
      {cursors.length > 0 && last.isPending && <Loading label="Loading older changes…" />}
    </ListPageFrame>
  );
}

/** The entries in a seller's words: the card by its name, ids under "Details". */
function activityColumns(slabs: SlabFactsByListing | undefined): Column<ActivityEntry>[] {
  return [
    { id: 'time', header: 'Time', cell: (entry) => <ShortDate iso={entry.at} time /> },
    { id: 'person', header: 'Person', cell: personWords },
    {
      id: 'what',
      header: 'What',
      cell: (entry) => (
        <span>
          {actionWords(entry.action)}
          {entry.bulkJobId && <span className="muted"> (bulk edit)</span>}
        </span>
      ),
    },
    {
      id: 'card',
      header: 'Card',
      cell: (entry) => {
        if (!entry.listingId) return '—';
        const slab = slabs?.get(entry.listingId);
        const detail = slabDetail(slab);
        return (
          <div className="activity-card">
            <Link to={paths.listing.to(entry.listingId)}>
              {slabName(slab) ?? 'A listing no longer in your catalogue'}
            </Link>
            {detail && <div className="muted">{detail}</div>}
          </div>
        );
      },
    },
    {
      id: 'changes',
      header: 'Changes',
      cell: (entry) => (
        <div>
          {changeLines(entry).map((line) => (
            <div key={line}>
              <FiguresIn text={line} />
            </div>
          ))}
        </div>
      ),
    },
    {
      id: 'outcome',
      header: 'Outcome',
      cell: (entry) => (
        <div>
          {outcomeWords(entry)}
          {(entry.requestId || entry.outcome !== 'ok' || entry.listingId) && (
            <details>
              <summary>Details</summary>
              <dl className="facts">
                {entry.listingId && <Fact label="Listing id">{code(entry.listingId)}</Fact>}
                {entry.outcome !== 'ok' && entry.status > 0 && (
                  <Fact label="HTTP status">{entry.status}</Fact>
                )}
                {entry.code && entry.outcome !== 'ok' && (
                  <Fact label="Code">{code(entry.code)}</Fact>
                )}
                {entry.requestId && <Fact label="Request id">{code(entry.requestId)}</Fact>}
              </dl>
            </details>
          )}
        </div>
      ),
    },
  ];
}

const code = (text: string) => <code>{text}</code>;

export { ActivityPage as Component };
