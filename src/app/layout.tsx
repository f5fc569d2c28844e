import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Link, NavLink, Outlet, useLocation, useNavigation } from 'react-router';
import { ReadOnlyNotice } from '../components/write-actions';
import { bootMode } from '../lib/boot-mode';
import { UnfinishedBulkEditNotice } from '../features/listings/bulk-edit/unfinished-notice';
import { useApiClient } from '../api/api-context';
import { pingQuery } from '../api/connection-query';
import { BucketMeter } from '../components/bucket-meter';
import { useKeyboardShortcuts } from './keyboard-shortcuts';
import { ConnectionStatus } from './connection-status';
import { bootSession, useSessionEnded } from '../lib/session';
import { useAfterFirstReads } from '../api/first-reads';
import { useOffline } from '../api/offline';
import { prefetchSales } from '../api/sales/sales-queries';
import { ClearedNote } from './cleared-note';
import { lazyPart } from '../components/lazy-part';
import { loadScanDialog, preloadScan, usePreloadScan } from './scan-preload';
import { connectOutboxToSession } from './session-end';
import { paths } from '../shared/paths';
import { useShipQueueCount } from '../api/sales/use-ship-queue-count';

/** The shortcuts' help: its own chunk, loaded when first asked for (`?`). */
const ShortcutsHelp = lazyPart(() => import('./shortcuts-help').then((module) => module.default));
/** The signed-in person's controls and the session-ended banner: loaded only with a session. */
const SessionControls = lazyPart(() =>
  import('./session-controls').then((module) => module.SessionControls),
);
const SessionEndedBanner = lazyPart(() =>
  import('./session-controls').then((module) => module.SessionEndedBanner),
);
/** The scanner (camera, reader, stack): its own chunk, got ready before the press (scan-preload). */
const ScanDialog = lazyPart(() => loadScanDialog().then((module) => module.default));
/** The sold-online alerts and the offline banner (with the outbox's sending): after the first paint. */
const SoldOnlineAlerts = lazyPart(() =>
  import('../features/show/sold-online/sold-online-alerts').then(
    (module) => module.SoldOnlineAlerts,
  ),
);
const OfflineStatus = lazyPart(() =>
  import('./offline-status').then((module) => module.OfflineStatus),
);

const NAV = [
  { to: paths.overview.to(), label: 'Overview', end: true },
  { to: paths.insights.to(), label: 'Insights', end: false },
  { to: paths.listings.to(), label: 'Listings', end: false },
  { to: paths.orders.to(), label: 'Orders', end: false },
  { to: paths.shipQueue.to(), label: 'Ship to the hub', end: false, count: 'ship-queue' },
  { to: paths.payouts.to(), label: 'Payouts', end: false },
  { to: paths.inventory.to(), label: 'Inventory', end: false },
  { to: paths.locations.to(), label: 'Locations', end: false },
  { to: paths.events.to(), label: 'Events', end: false },
  { to: paths.activity.to(), label: 'Activity', end: false },
  { to: paths.shows.to(), label: 'Shows', end: false },
  { to: paths.rules.to(), label: 'Rules', end: false },
];

/** The frame of every page: skip link, navigation (a Menu on a narrow screen), status, shortcuts. */
export function Layout() {
  const client = useApiClient();
  const ping = useQuery(pingQuery(client));
  const mode = ping.data?.mode ?? bootMode();
  const navigation = useNavigation();
  const location = useLocation();
  // The menu is open on the page it was opened on: moving to another page closes it.
  const [menuOpenOn, setMenuOpenOn] = useState<string | null>(null);
  const menuOpen = menuOpenOn === location.pathname;
  const setMenuOpen = (open: boolean) => setMenuOpenOn(open ? location.pathname : null);
  const [helpOpen, setHelpOpen] = useState(false);
  const openHelp = useCallback(() => setHelpOpen(true), []);
  const [scanOpen, setScanOpen] = useState(false);
  const openScan = useCallback(() => setScanOpen(true), []);
  useKeyboardShortcuts(openHelp, openScan);
  usePreloadScan(/^\/shows?(\/|$)/.test(location.pathname));
  const shipCount = useShipQueueCount();
  const signedIn = bootSession() !== null;
  const sessionEnded = useSessionEnded();
  const queryClient = useQueryClient();
  const pageRead = useAfterFirstReads(queryClient);
  // With no network the reads retry for seconds: the offline banner and its outbox come at once.
  const offline = useOffline();
  // The header's count reads the kept orders once the page's own reads are in: never before them.
  useEffect(() => {
    if (pageRead) prefetchSales({ orders: true, scoped: true })({ client, queryClient });
  }, [pageRead, client, queryClient]);
  const mainRef = useRef<HTMLElement>(null);
  const firstPath = useRef(location.pathname);
  // Before the outbox first sends (an effect of a child): each write belongs to its account.
  useLayoutEffect(connectOutboxToSession, []);

  useEffect(() => {
    if (location.pathname === firstPath.current) return;
    firstPath.current = '';
    // A new page: unless the page put focus somewhere itself, start from its main content.
    const focused = document.activeElement;
    if (!focused || focused === document.body || focused.closest('header')) {
      mainRef.current?.focus({ preventScroll: true });
    }
  }, [location.pathname]);

  return (
    <div className={`app mode-${mode ?? 'unknown'}`}>
      <a
        className="skip-link"
        href="#main"
        onClick={(event) => {
          event.preventDefault();
          mainRef.current?.focus();
        }}
      >
        Skip to main content
      </a>
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
          <button
            type="button"
            className="menu-button"
            aria-expanded={menuOpen}
            aria-controls="main-nav"
            onClick={() => setMenuOpen(!menuOpen)}
          >
            <span aria-hidden="true" className="menu-icon">
              ☰
            </span>
            <span className="visually-hidden">Menu</span>
          </button>
          <nav
            aria-label="Main"
            id="main-nav"
            className={menuOpen ? 'open' : undefined}
            onKeyDown={(event) => {
              if (event.key === 'Escape' && menuOpen) setMenuOpen(false);
            }}
          >
            <ul>
              {NAV.map((item) => (
                <li key={item.to}>
                  <NavLink to={item.to} end={item.end}>
                    {item.label}
                    {item.count === 'ship-queue' && (
                      <>
                        {' '}
                        {/* Its room is kept before the count is known: the links after it never move. */}
                        <span
                          className="nav-count"
                          data-empty={shipCount ? undefined : true}
                          aria-hidden={shipCount ? undefined : true}
                        >
                          {shipCount ? (
                            <>
                              {shipCount}
                              <span className="visually-hidden"> waiting</span>
                            </>
                          ) : null}
                        </span>
                      </>
                    )}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
          {/* Status, API capacity at a desk, session and help: one row that never wraps. */}
          <div className="topbar-end">
            <button
              type="button"
              className="scan-button"
              aria-haspopup="dialog"
              onClick={openScan}
              onPointerEnter={preloadScan}
              onFocus={preloadScan}
              title="Scan a slab's label (s)"
            >
              Scan
            </button>
            <div className="connection">
              <ConnectionStatus
                mode={mode}
                sellerId={ping.data?.seller_id}
                unreachable={ping.isError}
              />
              <span className="connection-meter">
                <BucketMeter compact />
              </span>
            </div>
            {signedIn && <SessionControls />}
            <button
              type="button"
              className="shortcuts-button"
              aria-haspopup="dialog"
              onClick={openHelp}
              title="Keyboard shortcuts (?)"
            >
              <span aria-hidden="true">?</span>
              <span className="visually-hidden">Keyboard shortcuts</span>
            </button>
          </div>
        </div>
      </header>
      <main id="main" ref={mainRef} tabIndex={-1} aria-busy={navigation.state === 'loading'}>
        {sessionEnded && <SessionEndedBanner />}
        <ClearedNote />
        {(pageRead || offline) && (
          <>
            <SoldOnlineAlerts />
            <OfflineStatus />
          </>
        )}
        <ReadOnlyNotice />
        <UnfinishedBulkEditNotice />
        <Outlet />
      </main>
      {scanOpen && <ScanDialog onClose={() => setScanOpen(false)} />}
      {helpOpen && <ShortcutsHelp open onClose={() => setHelpOpen(false)} />}
    </div>
  );
}
