import { isRecord } from '../shared/is-record';

/** This browser's localStorage or sessionStorage, or undefined where none or refused. */
function storage(name: 'localStorage' | 'sessionStorage'): Storage | undefined {
  try {
    return typeof globalThis[name] === 'undefined' ? undefined : globalThis[name];
  } catch {
    return undefined;
  }
}

export const localStore = () => storage('localStorage');
export const sessionStore = () => storage('sessionStorage');

/** A JSON value this page kept (read back unchecked: this page wrote it); undefined if unreadable. */
export function readKept<T>(name: string, store = localStore()): T | undefined {
  try {
    const text = store?.getItem(name);
    return text ? (JSON.parse(text) as T) : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps a JSON value; a full or refused storage only loses it (it is read again next time). */
export function writeKept(name: string, value: unknown, store = localStore()): void {
  try {
    store?.setItem(name, JSON.stringify(value));
  } catch {
    // Nothing kept: the caller's own memory still holds it for this visit.
  }
}

/**
 * A read kept here as last answered: the page opens on it with no network, and reads anew. `check`
 * drops a kept value of another shape (an older build's).
 */
export function keptAnswer<T>(
  name: string,
  read: (signal: AbortSignal) => Promise<T>,
  check: (kept: unknown) => boolean = () => true,
) {
  return {
    queryFn: async ({ signal }: { signal: AbortSignal }) => {
      const answer = await read(signal);
      writeKept(name, answer);
      return answer;
    },
    initialData: () => {
      const kept = readKept<T>(name);
      return kept !== undefined && check(kept) ? kept : undefined;
    },
    initialDataUpdatedAt: 0,
  };
}

/** A kept JSON object (a map), or `{}` when none, unreadable or not an object. */
export function readKeptMap<T>(name: string, store = localStore()): Record<string, T> {
  const value = readKept<unknown>(name, store);
  return isRecord(value) ? (value as Record<string, T>) : {};
}
