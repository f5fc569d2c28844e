import { createPath, parsePath, type Location, type Path, type To } from 'react-router';

/** How a location was reached: the browser's back/forward, a new entry, or one replaced. */
export type HistoryAction = 'POP' | 'PUSH' | 'REPLACE';

/** A move the seller made with back or forward: `delta` entries from where they were. */
export type PopListener = (location: Location, delta: number) => void;

/**
 * The session history the router moves through: the browser's, or a list in memory (tests).
 * Pushes and replaces change it at once and tell no one (the router commits them itself);
 * back/forward (`go`) is told to the listener, with how far it moved.
 */
export interface AppHistory {
  readonly location: Location;
  push(location: Location): void;
  replace(location: Location): void;
  go(delta: number): void;
  createHref(to: To): string;
  listen(listener: PopListener): () => void;
}

let keys = 0;
const newKey = () => `${Date.now().toString(36)}-${(keys++).toString(36)}`;

/** A location for `to` (a path, or one already parsed), with its state and a new key. */
export function locationOf(to: To, state: unknown = null, key = newKey()): Location {
  const path: Partial<Path> = typeof to === 'string' ? parsePath(to) : to;
  return {
    pathname: path.pathname || '/',
    search: path.search ?? '',
    hash: path.hash ?? '',
    state,
    key,
  };
}

/** The address `to` names, as a string. */
export const hrefOf = (to: To) => (typeof to === 'string' ? to : createPath(to));

/** What each entry of the browser's history holds for us: its state, key and position. */
interface EntryState {
  usr: unknown;
  key: string;
  idx: number;
}

const entryOf = (state: unknown): Partial<EntryState> =>
  state && typeof state === 'object' ? (state as Partial<EntryState>) : {};

/**
 * The browser's history (`window.history`), each entry numbered so a back/forward knows how far.
 * The entry the page was opened on is number 0 without being written (writing the history's
 * state costs a few milliseconds of the start-up): an entry without a number is that one.
 */
export function browserHistory(): AppHistory {
  const read = (): Location => {
    const entry = entryOf(window.history.state);
    const { pathname, search, hash } = window.location;
    return locationOf({ pathname, search, hash }, entry.usr ?? null, entry.key ?? 'default');
  };
  let location = read();
  let index = entryOf(window.history.state).idx ?? 0;
  const write = (next: Location, method: 'pushState' | 'replaceState') => {
    if (method === 'pushState') index += 1;
    location = next;
    const entry: EntryState = { usr: next.state, key: next.key, idx: index };
    window.history[method](entry, '', createPath(next));
  };
  return {
    get location() {
      return location;
    },
    push: (next) => write(next, 'pushState'),
    replace: (next) => write(next, 'replaceState'),
    go: (delta) => window.history.go(delta),
    createHref: hrefOf,
    listen(listener) {
      const onPop = () => {
        const to = entryOf(window.history.state).idx ?? 0;
        const delta = to - index;
        index = to;
        location = read();
        listener(location, delta);
      };
      window.addEventListener('popstate', onPop);
      return () => window.removeEventListener('popstate', onPop);
    },
  };
}

/** A history kept in memory, starting at the last of `entries` (tests). */
export function memoryHistory(entries: readonly string[] = ['/']): AppHistory {
  const stack = entries.map((entry) => locationOf(entry));
  let index = stack.length - 1;
  const listeners = new Set<PopListener>();
  return {
    get location() {
      return stack[index]!;
    },
    push(next) {
      index += 1;
      stack.splice(index, stack.length, next);
    },
    replace(next) {
      stack[index] = next;
    },
    go(delta) {
      const to = Math.min(Math.max(index + delta, 0), stack.length - 1);
      if (to === index) return;
      const moved = to - index;
      index = to;
      for (const listener of listeners) listener(stack[index]!, moved);
    },
    createHref: hrefOf,
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
