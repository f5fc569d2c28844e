import { useCallback, useLayoutEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';

export type SearchPatch = Record<string, string | undefined>;

function applyPatch(current: URLSearchParams, patch: SearchPatch): URLSearchParams {
  const next = new URLSearchParams(current);
  for (const [key, value] of Object.entries(patch)) {
    if (value) next.set(key, value);
    else next.delete(key);
  }
  return next;
}

/**
 * The URL's search params as a page's state (filters, search, sort): read them, and write a patch
 * (empty values removed) that replaces the history entry rather than adding one.
 *
 * A router may apply a navigation later than the input's own render (react-router's data router
 * did it inside a transition; ours waits for a page's chunk when a move leaves the page), and an
 * input controlled by the URL alone would then show its old value meanwhile (a checkbox seems not
 * to tick). The patched params are therefore also held here until the URL catches up, and inputs
 * answer at once.
 *
 * `update` is stable and always patches the latest params: a call kept by a timer (the search
 * box's debounce) and a filter chosen meanwhile compose, instead of the older call writing back
 * the params it was made from.
 */
export function useSearchParamState(): [URLSearchParams, (patch: SearchPatch) => void] {
  const [params, setParams] = useSearchParams();
  // The patched params, and the URL params they were made from: once the URL changes (the
  // navigation committed, or back/forward), the held copy no longer applies.
  const [held, setHeld] = useState<{ base: URLSearchParams; value: URLSearchParams } | null>(null);
  const current = held !== null && held.base === params ? held.value : params;
  const latest = useRef({ params, current, setParams });
  useLayoutEffect(() => {
    latest.current = { params, current, setParams };
  });
  const update = useCallback((patch: SearchPatch) => {
    const { params: base, current: from, setParams: set } = latest.current;
    const value = applyPatch(from, patch);
    // Two patches in one tick compose: the second starts from the first.
    latest.current = { ...latest.current, current: value };
    setHeld({ base, value });
    set(value, { replace: true });
  }, []);
  return [current, update];
}
