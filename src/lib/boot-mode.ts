/** The key's mode as written into the page, so the test-mode banner shows at first paint. */
export function bootMode(): 'live' | 'test' | undefined {
  if (typeof document === 'undefined') return undefined;
  const value = document.querySelector('meta[name="slabdesk-mode"]')?.getAttribute('content');
  return value === 'live' || value === 'test' ? value : undefined;
}
