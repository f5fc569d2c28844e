import { useCallback, useState } from 'react';
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
 * The router applies a navigation inside a transition, so an input controlled by the URL alone
 * would show its old value until that render finishes (a checkbox seems not to tick). The patched
 * params are therefore also held here until the URL catches up, and inputs answer at once.
 */
export function useSearchParamState(): [URLSearchParams, (patch: SearchPatch) => void] {
  const [params, setParams] = useSearchParams();
  // The patched params, and the URL params they were made from: once the URL changes (the
  // navigation committed, or back/forward), the held copy no longer applies.
  const [held, setHeld] = useState<{ base: URLSearchParams; value: URLSearchParams } | null>(null);
  const current = held !== null && held.base === params ? held.value : params;
  const update = useCallback(
    (patch: SearchPatch) => {
      setHeld((h) => ({
        base: params,
        value: applyPatch(h !== null && h.base === params ? h.value : params, patch),
      }));
      setParams((url) => applyPatch(url, patch), { replace: true });
    },
    [params, setParams],
  );
  return [current, update];
}
