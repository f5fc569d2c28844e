import { isApiError, type SetAsideRecord } from '../client';
import { SetAsideNotice } from './set-aside-notice';
import { formatDateTime } from '../lib/format';
import { errorWords, marketplaceSays } from '../lib/error-words';
import { noteSellerAsked } from '../api/kept/seller-asked';
import { ErrorDetails } from './error-details';
import { REQUIRED_SCOPES } from '../api/required-scopes';

/** An error that belongs to no field, in words; code, status and request id under "Details". */
export function ErrorBanner({
  error,
  title = 'Something went wrong',
  scope,
  onRetry,
}: {
  error: unknown;
  title?: string;
  /** The permission (scope) this part of the dashboard needs, named for insufficient_scope. */
  scope?: string;
  onRetry?: () => void;
}) {
  if (!error) return null;
  const api = isApiError(error) ? error : undefined;
  const words = errorWords(api?.code);
  let what = api ? words.what : error instanceof Error ? error.message : String(error);
  let next = api ? words.next : 'Try again.';
  if (api?.code === 'insufficient_scope') {
    next = scope
      ? `Create a key with the permission “${scope}” and put it in the dashboard’s settings to see this page.`
      : next;
  } else if (api?.code === 'upstream_paused' && api.pausedUntil !== undefined) {
    // The server wrote the end of the pause in its own zone: say it in the seller's.
    const until = formatDateTime(new Date(api.pausedUntil).toISOString());
    next = `The dashboard waits until ${until}, then carries on by itself.`;
  } else if (api?.code === 'rate_limited' && api.retryAfter) {
    next = `Try again in ${Math.ceil(api.retryAfter)} seconds.`;
  } else if (api?.code === 'listing_write_forbidden' || api?.code === 'validation_error') {
    // The marketplace's message names the rule or the fields: that is the why.
    what = `${words.what} The marketplace says: ${marketplaceSays(api.message)}`;
  }
  return (
    <div className="banner banner-error" role="alert">
      <p className="banner-title">
        <strong>{title}</strong>
      </p>
      <p>{what}</p>
      <p>{next}</p>
      {api && <ErrorDetails error={api} />}
      {onRetry && (
        <button type="button" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

/** The house's whole reads: each one's banner title, scope and records' noun. */
const READS = {
  orders: { title: 'Orders could not be loaded', scope: REQUIRED_SCOPES.orders, noun: 'order' },
  listings: {
    title: 'Listings could not be loaded',
    scope: REQUIRED_SCOPES.listings,
    noun: 'listing',
  },
  inventory: {
    title: 'Inventory could not be loaded',
    scope: REQUIRED_SCOPES.inventory,
    noun: 'card',
  },
} as const;

/** A query's error as a banner with a retry; with `noun`, the records it set aside counted. */
export function QueryErrorBanner({
  query,
  of,
  title = of && READS[of].title,
  scope = of && READS[of].scope,
  noun = of && READS[of].noun,
}: {
  query: {
    isError: boolean;
    error: unknown;
    refetch: () => unknown;
    data?: object | { setAside: readonly SetAsideRecord[] } | undefined;
  };
  /** One of the house's whole reads: its title, scope and noun, unless given. */
  of?: keyof typeof READS;
  title?: string | undefined;
  scope?: string | undefined;
  /** With it, the records the read set aside are counted under the banner's place (`noun`s). */
  noun?: string | undefined;
}) {
  const data = query.data;
  const setAside = noun && data && 'setAside' in data && (
    <SetAsideNotice records={data.setAside} noun={noun} />
  );
  if (!query.isError) return setAside || null;
  return (
    <>
      <ErrorBanner
        error={query.error}
        title={title}
        {...(scope === undefined ? {} : { scope })}
        onRetry={() => {
          // The seller's ask: a kept collection's back-off after a failure does not hold it.
          noteSellerAsked();
          void query.refetch();
        }}
      />
      {setAside}
    </>
  );
}
