// @vitest-environment jsdom
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useThrottledStore } from '../../src/api/live/use-throttled-store';

/** A store that changes on every call of `bump`, counting who listens. */
function counterStore() {
  let value = 0;
  const listeners = new Set<() => void>();
  return {
    subscribe: (listener: () => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => value,
    bump() {
      value++;
      for (const listener of listeners) listener();
    },
    listening: () => listeners.size,
  };
}

describe('a store read at most once per interval', () => {
  afterEach(() => vi.useRealTimers());

  it('redraws once for a burst of changes, showing the latest value', () => {
    vi.useFakeTimers();
    const store = counterStore();
    let draws = 0;
    function Meter() {
      draws++;
      const value = useThrottledStore(store.subscribe, store.getSnapshot, 250);
      return <p>value {value}</p>;
    }
    const view = render(<Meter />);
    const before = draws;
    act(() => {
      for (let i = 0; i < 50; i++) store.bump();
    });
    expect(screen.getByText('value 0')).toBeTruthy();
    act(() => void vi.advanceTimersByTime(250));
    expect(screen.getByText('value 50')).toBeTruthy();
    expect(draws - before).toBe(1);
    act(() => store.bump());
    act(() => void vi.advanceTimersByTime(250));
    expect(screen.getByText('value 51')).toBeTruthy();
    expect(draws - before).toBe(2);
    view.unmount();
    expect(store.listening()).toBe(0);
  });
});
