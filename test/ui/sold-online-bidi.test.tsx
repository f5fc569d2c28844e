// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { CLOSED_STREAM, HubStream } from '../../src/api/live/hub-stream';
import { HubStreamProvider } from '../../src/api/live/live-context';
import { SoldOnlineAlerts } from '../../src/features/show/sold-online/sold-online-alerts';
import type { HubSoldOnlineAlert } from '../../src/client/hub-messages';

/**
 * The finding "a listing's title with a right-to-left override (U+202E) turns the words after it
 * around": the sold-online alert wrote a stranger's title, then the cert and our words, in one
 * run of text, so a title ending in U+202E showed the cert number backwards ("7654321" for
 * 1234567) and the slab to pull was misread. The title and the show's name are each isolated.
 */
afterEach(() => cleanup());

const alert: HubSoldOnlineAlert = {
  listingId: 'lst_1',
  title: '2020 Prizm Herbert \u202E',
  certNumber: '1234567',
  grader: 'PSA',
  showKey: 'show-1',
  showName: 'Spring show \u202E',
  soldAt: '2026-07-01T10:00:00.000Z',
  url: '/show/cert/1234567?grader=PSA',
};

describe('a sold-online alert for a title that carries bidi controls', () => {
  it('isolates the title and the show name from the cert and the words around them', () => {
    localStorage.clear();
    const stream = new HubStream();
    const state = { ...CLOSED_STREAM, soldOnline: [alert] };
    stream.getState = () => state;
    render(
      <MemoryRouter>
        <HubStreamProvider stream={stream}>
          <SoldOnlineAlerts />
        </HubStreamProvider>
      </MemoryRouter>,
    );
    const shown = screen.getByRole('alert');
    expect(shown).toHaveTextContent(
      'Sold online: pull 2020 Prizm Herbert \u202E (cert 1234567) from the table',
      { normalizeWhitespace: false },
    );
    const isolated = [...shown.querySelectorAll('bdi')].map((bdi) => bdi.textContent);
    expect(isolated).toEqual([alert.title, alert.showName]);
  });
});
