import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { listingKeys } from '../api/listings/listing-keys';
import { orderKeys } from '../api/orders/order-keys';
import type { Kept } from '../api/kept/kept-sync';
import { pendingOf, useOutboxItems } from '../api/outbox/outbox';
import { useOutboxSync } from '../api/outbox/use-outbox-sync';
import { useOffline } from '../api/offline';
import { freshnessText } from '../components/freshness';
import { useNow } from '../lib/use-now';
import { paths } from '../shared/paths';

const ageOf = (kept: Kept<unknown> | undefined, now: number) =>
  kept?.checkedAt === undefined ? 'age unknown' : freshnessText(kept.checkedAt, now).toLowerCase();

/** On every page: no network, how old the kept copies are, how many changes wait to be sent. */
export function OfflineStatus() {
  useOutboxSync();
  const online = !useOffline();
  const queryClient = useQueryClient();
  const now = useNow(30_000);
  const items = useOutboxItems();
  const waiting = pendingOf(items).filter(
    (item) => item.state === 'waiting' || item.state === 'sending',
  ).length;
  const conflicts = items.filter((item) => item.state === 'conflict').length;
  if (online && waiting === 0 && conflicts === 0) return null;
  const listings = queryClient.getQueryData<Kept<unknown>>(listingKeys.catalogue());
  const orders = queryClient.getQueryData<Kept<unknown>>(orderKeys.kept());
  return (
    <div className={`banner ${online ? 'banner-info' : 'banner-warn'}`} role="status">
      {!online && (
        <p>
          <strong>Offline: no network.</strong> Showing this device’s copy of your listings (
          {listings ? `${listings.rows.length} listings, ${ageOf(listings, now)}` : 'none kept'})
          and orders ({orders ? `${orders.rows.length} orders, ${ageOf(orders, now)}` : 'none kept'}
          ).
        </p>
      )}
      {(waiting > 0 || conflicts > 0) && (
        <p>
          <Link to={paths.shows.to()}>
            {waiting === 1 ? '1 change waiting' : `${waiting} changes waiting`}
            {conflicts > 0 &&
              `, ${conflicts === 1 ? '1 conflict' : `${conflicts} conflicts`} to settle`}
          </Link>
        </p>
      )}
    </div>
  );
}
