import { formatDateTime } from '../../../lib/format';

/**
 * Said once, above a show's figures, when its ledger was not read just now (no network, or the
 * server did not answer): how old the ledger shown is, and that this phone's sales are in it.
 * Nothing when it was read (the header and the page's banner say "offline" for every page).
 */
export function OfflineNote({
  offline,
  notRead,
  readAt,
  waiting,
}: {
  offline: boolean;
  notRead: boolean;
  /** When the ledger shown was read (ms), or undefined when this device holds none. */
  readAt: number | undefined;
  /** Sales of this phone not sent yet, added into the figures. */
  waiting: number;
}) {
  if (!offline && !notRead) return null;
  const ledger =
    readAt === undefined
      ? 'this device holds no read of the ledger: showing the show’s figures as last listed'
      : `showing the ledger as read at ${formatDateTime(new Date(readAt).toISOString())}`;
  const added = waiting > 0 ? ', with the sales waiting on this phone added' : '';
  return (
    <p className="banner banner-warn offline-note" role="status">
      {offline
        ? `Offline: ${ledger}${added}. Sales made here are kept on this phone and sent when the connection is back.`
        : `The ledger could not be read just now: ${ledger}${added}.`}
    </p>
  );
}
