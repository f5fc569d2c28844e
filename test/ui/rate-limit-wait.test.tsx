// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { startFaultProxy } from '../client/fault-proxy';
import { useDemoSandbox } from './support/demo';
import { renderApp } from './support/render-app';

/** A 429 with `Retry-After` during the catalogue's walk: the wait is shown while it lasts. */
const demo = useDemoSandbox();

describe('a wait the marketplace asks for during the walk', () => {
  it('says how long and when reading resumes, then the walk completes', async () => {
    let limited = false;
    const proxy = await startFaultProxy(demo.harness.url, {
      retryAfter: 3,
      // The walk's second page is refused once with 429 Retry-After: 3.
      decide: ({ url }) => {
        if (limited || !url.includes('/listings.json') || !url.includes('page_info=')) {
          return 'pass';
        }
        limited = true;
        return 'rate_limited';
      },
    });
    try {
      renderApp('/listings', { baseUrl: proxy.url, token: demo.token });
      const note = await screen.findByText(
        /The marketplace asked us to wait 3 s; reading resumes at \d{1,2}:\d{2}:\d{2}/,
        undefined,
        { timeout: 15_000 },
      );
      expect(note).toHaveAttribute('role', 'status');
      await waitFor(
        () =>
          expect(
            screen.getByText(/of \d+ listings/, { selector: '.table-summary' }),
          ).toHaveTextContent(/^600 of 600 listings/),
        { timeout: 15_000 },
      );
      expect(screen.queryByText(/asked us to wait/)).toBeNull();
    } finally {
      await proxy.close();
    }
  });
});
