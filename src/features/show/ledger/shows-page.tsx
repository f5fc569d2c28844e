import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useApiClient } from '../../../api/api-context';
import { showsQuery, today, useStartShow } from '../../../api/shows/show-queries';
import { ShowsUnavailable, type ShowSummary } from '../../../api/shows/show-api';
import { FormField } from '../../../components/form-field';
import { ErrorBanner } from '../../../components/error-banner';
import { useWriteButton } from '../../../components/write-actions';
import { paths } from '../../../shared/paths';
import { formatDay } from '../../../lib/format';
import { OutboxPanel } from './outbox-panel';
import { PushSetting } from '../sold-online/push-setting';
import { useOutboxItems, type OutboxItem } from '../../../api/outbox/outbox';
import { DataTable, type Column } from '../../../components/data-table';
import { phoneSales, showTotals } from './waiting-sales';
import { totalFigure, WaitingPart } from './waiting-part';
import './shows.css';

/** A figure of the list, with the part of it waiting on this phone, as the show's page says. */
function figureColumn(
  writes: readonly OutboxItem[],
  id: string,
  header: string,
  name: 'cardsSold' | 'cashCents',
): Column<ShowSummary> {
  return {
    id,
    header,
    align: 'right',
    cell: (show) => {
      const { totals, waiting } = showTotals(show.totals, phoneSales(writes, show.key, undefined));
      return (
        <>
          <span className="figure">{totalFigure(name, totals[name])}</span>
          <WaitingPart name={name} waiting={waiting} />
        </>
      );
    },
  };
}

const columnsWith = (writes: readonly OutboxItem[]): readonly Column<ShowSummary>[] => [
  {
    id: 'show',
    header: 'Show',
    cell: (show) => <Link to={paths.show.to(show.key)}>{show.name}</Link>,
  },
  {
    id: 'day',
    header: 'Day',
    cell: (show) => <span className="figure">{formatDay(show.date)}</span>,
  },
  figureColumn(writes, 'sold', 'Cards sold', 'cardsSold'),
  figureColumn(writes, 'cash', 'Cash taken', 'cashCents'),
];

/** Card shows: start one, and each show's takings at a glance. */
export function Component() {
  const client = useApiClient();
  const shows = useQuery(showsQuery(client));
  const start = useStartShow();
  const writes = useOutboxItems();
  const navigate = useNavigate();
  const writeButton = useWriteButton();
  const [name, setName] = useState('');
  const [date, setDate] = useState(today());
  const [error, setError] = useState<string>();
  const columns = useMemo(() => columnsWith(writes), [writes]);

  return (
    <section aria-labelledby="shows-heading">
      <h1 id="shows-heading">Card shows</h1>
      <OutboxPanel />
      <form
        className="panel inline-form"
        aria-labelledby="start-heading"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (name.trim() === '') return setError('Name the show');
          if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return setError('Choose the day of the show');
          setError(undefined);
          void start(name.trim(), date).then((key) => navigate(paths.show.to(key)));
        }}
      >
        <h2 id="start-heading">Start a show</h2>
        <FormField
          label="Show name"
          error={error}
          input={{ value: name, maxLength: 120, onChange: (event) => setName(event.target.value) }}
        />
        <FormField
          label="Day"
          input={{ type: 'date', value: date, onChange: (event) => setDate(event.target.value) }}
        />
        <button type="submit" className="primary" {...writeButton}>
          Start the show
        </button>
      </form>
      <PushSetting />
      {shows.error instanceof ShowsUnavailable ? (
        <p className="banner banner-info">This server keeps no show ledger.</p>
      ) : shows.isError && !shows.data ? (
        <ErrorBanner error={shows.error} title="The shows could not be loaded" />
      ) : null}
      {shows.data && shows.data.length > 0 && (
        <DataTable
          caption="Shows"
          rows={shows.data}
          columns={columns}
          getRowId={(show) => show.key}
          windowed={false}
        />
      )}
    </section>
  );
}
