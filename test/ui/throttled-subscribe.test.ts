import { describe, expect, it, vi } from 'vitest';
import { throttledSubscribe } from '../../src/lib/throttled-subscribe';

function store() {
  const listeners = new Set<() => void>();
  return {
    subscribe: (listener: () => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    change: () => listeners.forEach((listener) => listener()),
    size: () => listeners.size,
  };
}

describe('throttledSubscribe', () => {
  it('tells its listener once per burst of changes, after the burst’s first change', () => {
    vi.useFakeTimers();
    try {
      const source = store();
      const listener = vi.fn();
      const unsubscribe = throttledSubscribe(source.subscribe, 250)(listener);
      for (let i = 0; i < 40; i++) source.change();
      expect(listener).not.toHaveBeenCalled();
      vi.advanceTimersByTime(250);
      expect(listener).toHaveBeenCalledTimes(1);
      source.change();
      vi.advanceTimersByTime(100);
      source.change();
      vi.advanceTimersByTime(150);
      expect(listener).toHaveBeenCalledTimes(2);
      // Unsubscribing drops a pending call and the source's listener.
      source.change();
      unsubscribe();
      vi.advanceTimersByTime(1000);
      expect(listener).toHaveBeenCalledTimes(2);
      expect(source.size()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
