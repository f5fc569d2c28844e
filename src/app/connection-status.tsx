import { Link } from 'react-router';
import { PopoverButton } from '../components/popover-button';
import { BucketMeter } from '../components/bucket-meter';
import { useHubValue } from '../api/live/live-context';
import { useOffline } from '../api/offline';
import type { HubStreamState } from '../api/live/hub-stream';
import { paths } from '../shared/paths';
import { NARROW_QUERY, useMediaQuery } from '../components/use-media-query';

type Mode = 'live' | 'test' | undefined;

/** Why changes are not pushed as they happen (null when they are), in a seller's words. */
export function delayReason(state: HubStreamState): string | null {
  if (state.healthy) return null;
  if (state.connection !== 'open') return 'the dashboard is not connected to its update stream';
  if (state.status?.webhooks === 'off') return 'update notices are not set up on the server';
  return 'no update notice has arrived for 10 minutes';
}

/** `offline`: no network, or the server cannot be reached (said over the stream's state). */
export type UpdatesState = 'on' | 'delayed' | 'connecting' | 'offline';

/** Whether changes arrive as they happen; "connecting" until the stream first answers. */
export function updatesState(state: HubStreamState): UpdatesState {
  if (state.healthy) return 'on';
  if (state.connection === 'connecting' && state.status === undefined) return 'connecting';
  return 'delayed';
}

const UPDATES_WORDS: Record<UpdatesState, string> = {
  on: 'updates on',
  delayed: 'updates delayed',
  connecting: 'connecting…',
  offline: 'offline',
};

/** The words with no network: what the seller needs to know at the table. */
export const OFFLINE_WORDS = 'Offline · sales are kept on this phone';

/** The one status line of the header: which key, and whether changes arrive as they happen. */
export function statusWords(mode: Mode, updates: UpdatesState): string {
  if (updates === 'offline') return OFFLINE_WORDS;
  if (!mode) return 'Connecting…';
  return `${mode === 'test' ? 'Test' : 'Live'} key · ${UPDATES_WORDS[updates]}`;
}

/** The dot beside the words: the key's colour only once connected (never green before). */
export function dotClass(mode: Mode, updates: UpdatesState): string {
  if (updates === 'offline' || updates === 'connecting' || !mode) return `is-${updates}`;
  return `mode-${mode}${updates === 'delayed' ? ' is-delayed' : ''}`;
}

/** The header's one status (key mode, update stream), its details behind a button. */
export function ConnectionStatus({
  mode,
  sellerId,
  unreachable,
}: {
  mode: Mode;
  sellerId: string | undefined;
  unreachable: boolean;
}) {
  const reason = useHubValue(delayReason);
  const stream = useHubValue(updatesState);
  const offline = useOffline();
  const updates: UpdatesState = offline ? 'offline' : stream;
  // At a desk the meter sits in the header; on a phone it folds in here.
  const narrow = useMediaQuery(NARROW_QUERY);
  return (
    <PopoverButton
      className="connection-status"
      panelLabel="Connection details"
      label={
        <>
          <span className={`status-dot ${dotClass(mode, updates)}`} aria-hidden="true" />
          <span className="status-words" data-mode={mode}>
            {statusWords(mode, updates)}
          </span>
          {unreachable && !offline && <span className="connection-error"> · API unreachable</span>}
        </>
      }
    >
      {() => (
        <dl className="connection-details">
          <div>
            <dt>Key</dt>
            <dd>
              {mode === 'test'
                ? 'Test key: test records only, never visible to buyers.'
                : mode === 'live'
                  ? 'Live key: changes are real and visible to buyers.'
                  : 'Not known yet: the dashboard is still connecting.'}
            </dd>
          </div>
          <div>
            <dt>Seller</dt>
            <dd className="seller">{sellerId ?? '…'}</dd>
          </div>
          <div>
            <dt>Updates</dt>
            <dd>
              {offline
                ? 'No network: sales and prices made here are kept on this phone and sent when the connection is back.'
                : reason === null
                  ? 'Changes arrive as they happen.'
                  : `Pages check for changes every so often, because ${reason}.`}{' '}
              <Link to={paths.events.to()}>See the latest updates</Link>
            </dd>
          </div>
          {narrow && (
            <div>
              <dt>API capacity</dt>
              <dd>
                <BucketMeter compact />
              </dd>
            </div>
          )}
        </dl>
      )}
    </PopoverButton>
  );
}
