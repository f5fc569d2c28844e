import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { whenReadsSettle } from '../../src/api/first-reads';

/** A read that answers when the test says so. */
function heldRead(queryClient: QueryClient, key: string) {
  let answer!: (value: string) => void;
  const read = queryClient.fetchQuery({
    queryKey: [key],
    queryFn: () => new Promise<string>((resolve) => (answer = resolve)),
  });
  return { answer: (value: string) => answer(value), read };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('whenReadsSettle: what waits for a page’s first reads', () => {
  it('runs once every read in flight is answered, not before', async () => {
    const queryClient = new QueryClient();
    const first = heldRead(queryClient, 'catalogue');
    const second = heldRead(queryClient, 'views');
    const done = vi.fn();
    whenReadsSettle(queryClient, done);
    first.answer('rows');
    await first.read;
    expect(queryClient.isFetching()).toBe(1);
    expect(done).not.toHaveBeenCalled();
    second.answer('views');
    await second.read;
    await vi.waitFor(() => expect(done).toHaveBeenCalledTimes(1));
  });

  it('runs at the bound when a read never ends, once, and never after a cancel', async () => {
    vi.useFakeTimers();
    const queryClient = new QueryClient();
    const endless = heldRead(queryClient, 'a first fill');
    const done = vi.fn();
    const cancelled = vi.fn();
    whenReadsSettle(queryClient, done, 10_000);
    whenReadsSettle(queryClient, cancelled, 10_000)();
    await vi.advanceTimersByTimeAsync(9_999);
    expect(done).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toHaveBeenCalledTimes(1);
    endless.answer('late');
    await vi.advanceTimersByTimeAsync(2_000);
    expect(done).toHaveBeenCalledTimes(1);
    expect(cancelled).not.toHaveBeenCalled();
  });
});
