import { formatDateTime } from '../../../lib/format';

/** How old a ledger not read just now is, and that this phone's sales are in it; else nothing. */
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
