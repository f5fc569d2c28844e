// @vitest-environment jsdom
import { onlineManager, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiClientProvider } from '../../src/api/api-context';
import { useViewsRead, VIEWS_WAIT_MS } from '../../src/api/views/view-queries';
import { createClient } from '../../src/client';
import { createQueryClient } from '../../src/lib/query-client';

/** The hook in the app's own query client, the hub's answers from `fetch`. */
function viewsRead(fetch: (url: string) => Promise<Response>) {
  vi.stubGlobal('fetch', vi.fn(fetch));
  const queryClient = createQueryClient();
  const client = createClient({ baseUrl: 'http://hub.test/api/2026-07' });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>
      <ApiClientProvider client={client}>{children}</ApiClientProvider>
    </QueryClientProvider>
  );
  return renderHook(() => useViewsRead('listings'), { wrapper });
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  onlineManager.setOnline(true);
  localStorage.clear();
});

const never = () => new Promise<Response>(() => {});

describe('useViewsRead: the list under the saved views waits for their first read only', () => {
  it('waits while the read is on its way, and not once it is answered', async () => {
    let answer!: () => void;
    const held = new Promise<void>((done) => (answer = done));
    const { result } = viewsRead(async () => {
      await held;
      return Response.json({ views: [{ name: 'PSA 10', search: 'grade=10' }] });
    });
    expect(result.current).toBe(false);
    answer();
    await waitFor(() => expect(result.current).toBe(true));
  });

  it('does not wait when the read fails: the list is drawn without the views', async () => {
    const { result } = viewsRead(() => Promise.reject(new TypeError('Failed to fetch')));
    await waitFor(() => expect(result.current).toBe(true));
  });

  it('does not wait offline, where the read is paused until the network is back', () => {
    onlineManager.setOnline(false);
    const { result } = viewsRead(never);
    expect(result.current).toBe(true);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('does not wait for views kept from a visit before, and reads them anew, keeping the answer', async () => {
    localStorage.setItem(
      'slabdesk.views.read.listings',
      JSON.stringify([{ name: 'PSA 10', search: 'grade=10' }]),
    );
    const { result } = viewsRead(async () =>
      Response.json({ views: [{ name: 'Drafts', search: 'status=draft' }] }),
    );
    expect(result.current).toBe(true);
    await waitFor(() =>
      expect(JSON.parse(localStorage.getItem('slabdesk.views.read.listings')!)).toEqual([
        { name: 'Drafts', search: 'status=draft' },
      ]),
    );
  });

  it('waits for a kept value of another shape as for none', () => {
    localStorage.setItem('slabdesk.views.read.listings', JSON.stringify({ views: 'old' }));
    const { result } = viewsRead(never);
    expect(result.current).toBe(false);
  });

  it('waits at most VIEWS_WAIT_MS for a read that never answers', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { result } = viewsRead(never);
    expect(result.current).toBe(false);
    act(() => vi.advanceTimersByTime(VIEWS_WAIT_MS - 1));
    expect(result.current).toBe(false);
    act(() => vi.advanceTimersByTime(1));
    expect(result.current).toBe(true);
  });
});
