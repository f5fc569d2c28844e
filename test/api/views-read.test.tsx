// @vitest-environment jsdom
import { onlineManager, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiClientProvider } from '../../src/api/api-context';
import { useViewsRead } from '../../src/api/views/view-queries';
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
  vi.unstubAllGlobals();
  onlineManager.setOnline(true);
});

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
    const { result } = viewsRead(() => new Promise<Response>(() => {}));
    expect(result.current).toBe(true);
    expect(fetch).not.toHaveBeenCalled();
  });
});
