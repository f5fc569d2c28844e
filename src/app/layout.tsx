import { useQuery } from '@tanstack/react-query';
import { Link, NavLink, Outlet, useNavigation } from 'react-router';
import { ModeBadge } from '../components/mode-badge';
import { UnfinishedBulkEditNotice } from '../features/listings/bulk-edit/unfinished-notice';
import { useApiClient } from '../lib/api-context';
import { pingQuery } from '../lib/connection-query';
import { BucketMeter } from './connection-status';
import { paths } from './paths';

const NAV = [
  { to: paths.overview.to(), label: 'Overview', end: true },
  { to: paths.insights.to(), label: 'Insights', end: false },
  { to: paths.listings.to(), label: 'Listings', end: false },
  { to: paths.orders.to(), label: 'Orders', end: false },
  { to: paths.payouts.to(), label: 'Payouts', end: false },
  { to: paths.inventory.to(), label: 'Inventory', end: false },
  { to: paths.locations.to(), label: 'Locations', end: false },
];

/** The frame of every page: navigation, the live/test badge, and the connection area. */
export function Layout() {
  const client = useApiClient();
  const ping = useQuery(pingQuery(client));
  const mode = ping.data?.mode;
  const navigation = useNavigation();
  return (
    <div className={`app mode-${mode ?? 'unknown'}`}>
      <header>
        {mode === 'test' && (
          <p className="test-strip" role="note">
            Test mode: you are looking at test records. Nothing here is real or visible to buyers.
          </p>
        )}
        <div className="topbar">
          <Link className="brand" to={paths.overview.to()}>
            Slabdesk
          </Link>
          <nav aria-label="Main">
            <ul>
              {NAV.map((item) => (
                <li key={item.to}>
                  <NavLink to={item.to} end={item.end}>
                    {item.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
          <div className="connection" aria-label="Connection">
            <ModeBadge mode={mode} />
            {ping.data && <span className="seller">{ping.data.seller_id}</span>}
            {ping.isError && <span className="connection-error">API unreachable</span>}
            <BucketMeter compact />
          </div>
        </div>
      </header>
      <main id="main" aria-busy={navigation.state === 'loading'}>
        <UnfinishedBulkEditNotice />
        <Outlet />
      </main>
    </div>
  );
}
