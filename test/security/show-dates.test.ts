import { describe, expect, it } from 'vitest';
import { raw } from '../support/raw-http';
import { hubForFile, ownCall } from './auth-http';

/**
 * The finding "a show dated 2026-02-30 is kept": the ledger's check of a show's day ("must be a
 * real date") asked only whether `Date.parse` read it, and V8 reads Feb 30 as Mar 2. The show was
 * kept under a day that does not exist: its CSV's name said 2026-02-30 and its rows "Mar 2, 2026".
 */

const hub = hubForFile();

const newShow = (key: string, date: string) =>
  ownCall(hub.app, 'POST', '/hub/shows', { key, name: 'Philly Card Show', date });

describe('a show’s day', () => {
  it('is refused when the calendar has no such day, and no show is kept', async () => {
    const days = ['2026-02-30', '2026-02-29', '2026-04-31', '2026-06-31', '2026-11-31'];
    for (const [index, date] of days.entries()) {
      const answer = await newShow(`bad-day-${index}-show`, date);
      expect(answer.status, date).toBe(422);
      expect(answer.json).toMatchObject({
        errors: { date: ['must be a real date'] },
        svc_error: { code: 'validation_error' },
      });
    }
    const shows = JSON.parse((await raw(hub.app.url, '/hub/shows')).body) as { shows: unknown[] };
    expect(shows.shows).toEqual([]);
  });

  it('is kept as written when it is one, leap days too', async () => {
    for (const date of ['2028-02-29', '2026-02-28', '2026-12-31']) {
      const answer = await newShow(`good-day-${date}`, date);
      expect(answer.status, date).toBe(201);
      expect(answer.json).toMatchObject({ show: { date } });
    }
  });
});
