import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { listingHistoryQuery } from '../../../api/activity/activity-queries';
import { actionWords, changeLines, outcomeWords, personWords } from '../../../lib/describe-change';
import { useApiClient } from '../../../api/api-context';
import { formatDateTime } from '../../../lib/format';
import { paths } from '../../../shared/paths';

/** A listing's latest changes from the server's activity log; nothing when there is no log. */
export function ListingHistory({ listingId }: { listingId: string }) {
  const client = useApiClient();
  const history = useQuery(listingHistoryQuery(client, listingId));
  if (!history.data) return null;
  const entries = history.data.entries;
  return (
    <section className="panel" aria-labelledby="history-heading">
      <h2 id="history-heading">History</h2>
      {entries.length === 0 ? (
        <p className="muted">No change to this listing has been made through this dashboard yet.</p>
      ) : (
        <ol className="history-list">
          {entries.map((entry) => (
            <li key={entry.id}>
              <span className="muted">{formatDateTime(entry.at)}</span> · {personWords(entry)} ·{' '}
              {actionWords(entry.action)}
              {changeLines(entry).length > 0 && `: ${changeLines(entry).join('; ')}`}
              {entry.outcome !== 'ok' && ` · ${outcomeWords(entry)}`}
            </li>
          ))}
        </ol>
      )}
      <p>
        <Link to={paths.activity.to(new URLSearchParams({ listing: listingId }))}>
          All activity of this listing
        </Link>
      </p>
    </section>
  );
}
