import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
import { CLOSED_STREAM, type HubStream, type HubStreamState } from './hub-stream';
import { useThrottledStore } from './use-throttled-store';

const HubStreamContext = createContext<HubStream | null>(null);

/** Gives the tree the server's event stream (the app has one; tests without it poll). */
export function HubStreamProvider({
  stream,
  children,
}: {
  stream: HubStream;
  children: ReactNode;
}) {
  return <HubStreamContext.Provider value={stream}>{children}</HubStreamContext.Provider>;
}

export function useHubStream(): HubStream | null {
  return useContext(HubStreamContext);
}

const noop = () => () => {};
const none = () => CLOSED_STREAM;

/** The stream's state, or a closed one when there is no stream. */
export function useHubState(): HubStreamState {
  const stream = useHubStream();
  return useSyncExternalStore(stream?.subscribe ?? noop, stream?.getState ?? none);
}

/** One primitive of the stream's state: the caller redraws only when it changes. */
export function useHubValue<T extends string | number | boolean | null | undefined>(
  select: (state: HubStreamState) => T,
): T {
  const stream = useHubStream();
  return useSyncExternalStore(stream?.subscribe ?? noop, () =>
    select(stream?.getState() ?? CLOSED_STREAM),
  );
}

/** The stream's state, redrawn at most once per `ms` (for meters). */
export function useThrottledHubState(ms: number): HubStreamState {
  const stream = useHubStream();
  return useThrottledStore(stream?.subscribe ?? noop, stream?.getState ?? none, ms);
}

/** Whether to say live updates are off: closed, or untrusted; not while connecting. */
export function useLiveUpdatesOff(): boolean {
  return useHubValue(
    (state) => state.connection === 'closed' || (state.status !== undefined && !state.healthy),
  );
}

/** A query's poll interval: none while the stream is healthy, `ms` otherwise. */
export function usePollInterval(ms: number): number | false {
  return useHubValue((state) => state.healthy) ? false : ms;
}
