// @vitest-environment jsdom
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { lazyPart } from '../../src/components/lazy-part';

/**
 * A frame part whose chunk cannot be fetched (a phone that lost its network before the part
 * arrived) draws nothing instead of taking the page down, and arrives when the browser is back
 * online; the second device, a second mount, finds it loaded.
 */
describe('a part of the frame in its own chunk', () => {
  it('is left out while its chunk cannot be fetched, and drawn once the browser is back online', async () => {
    let offline = true;
    let loads = 0;
    const Alerts = lazyPart(async () => {
      loads += 1;
      if (offline) throw new TypeError('Failed to fetch dynamically imported module');
      return ({ count }: { count: number }) => <p>{count} sold online</p>;
    });
    const { unmount } = render(
      <main>
        <h1>Show</h1>
        <Alerts count={2} />
      </main>,
    );
    await act(() => Promise.resolve());
    expect(loads).toBe(1);
    expect(screen.getByRole('heading', { name: 'Show' })).toBeInTheDocument();
    expect(screen.queryByText(/sold online/)).toBeNull();

    offline = false;
    await act(async () => {
      window.dispatchEvent(new Event('online'));
    });
    expect(await screen.findByText('2 sold online')).toBeInTheDocument();
    expect(loads).toBe(2);

    unmount();
    render(<Alerts count={3} />);
    expect(screen.getByText('3 sold online')).toBeInTheDocument();
    expect(loads).toBe(2);
  });
});
