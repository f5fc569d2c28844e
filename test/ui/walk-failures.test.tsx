// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { listingKeys } from '../../src/api/listings/listing-keys';
import { updateKeptListing } from '../../src/api/listings/catalogue-query';
import { startMisbehavingListings, type Misbehaviour } from '../support/misbehaving-listings';
import { useDemoSandbox } from './support/demo';
import { renderApp } from './support/render-app';

/**
 * The hub's walk of the catalogue against an upstream that misbehaves: the walk ends, the page says why and
 * keeps saying it (a live patch, a late page, an interval's refetch change nothing), reads no
 * more pages on its own, and never claims the catalogue is whole.
 */
const demo = useDemoSandbox();

// `most`: the pages the hub's walk reads before its guard stops it, plus the one it asks ahead
// while reading the current (its lookahead), plus one (a fully loaded machine once saw one more
// read in the empty-pages case; not yet explained, see the failure message).
const cases: { how: Misbehaviour; code: string; most: number }[] = [
  { how: 'looping-cursor', code: 'cursor_loop', most: 5 },
  { how: 'repeated-page', code: 'cursor_loop', most: 5 },
  { how: 'invalid-json', code: 'unexpected_response', most: 5 },
  { how: 'endless-empty-pages', code: 'cursor_loop', most: 8 },
];

describe('a catalogue walk that cannot end', () => {
  for (const { how, code, most } of cases) {
    it(`stops on ${how}, says so, and stays stopped until the seller asks`, async () => {
      const upstream = await startMisbehavingListings(demo.harness.url, demo.token, how);
      try {
        const { queryClient } = renderApp('/listings', {
          baseUrl: upstream.url,
          token: demo.token,
        });
        // The error, in a banner, with its code.
        const shown = () => screen.getByText(code).closest('[role="alert"]') as HTMLElement;
        // The hub's first walk: at load 14 it passed 15 s.
        await waitFor(() => expect(shown()).not.toBeNull(), { timeout: 40_000 });
        const calls = upstream.listingCalls.length;
        expect(calls, upstream.listingCalls.join('\n')).toBeLessThanOrEqual(most);

        // A live patch of a row shown, then what a minute's poll does (its fetch settled): neither
        // clears the error nor reads a page.
        const catalogue = queryClient.getQueryData<{ rows: { id: string }[] }>(
          listingKeys.catalogue(),
        );
        const id = catalogue?.rows[0]?.id;
        expect(id).toBeDefined();
        updateKeptListing(queryClient, id!, (row) => ({ ...row, title: 'Patched live' }));
        await queryClient.refetchQueries({ queryKey: listingKeys.catalogue() });
        expect(shown()).not.toBeNull();
        expect(upstream.listingCalls, upstream.listingCalls.join('\n')).toHaveLength(calls);
        expect(screen.queryByText(/Loading the catalogue/)).toBeNull();
        expect(shown()).toHaveTextContent(/stopped loading before its end/);
        // The summary says what is in hand, never that it is the whole catalogue.
        const summary = () => screen.getByText(/listings/, { selector: '.table-summary' });
        // Drawn in a transition after the banner: given time on a busy machine.
        await waitFor(() => expect(summary()).toHaveTextContent(/[1-9]\d* of the \d+ listings/), {
          timeout: 10_000,
        });
        expect(summary()).toHaveTextContent(/read before loading stopped/);
        expect(summary().textContent).not.toMatch(/^(\d+) of \1 listings/);

        // The seller asks: the walk starts again (and stops again the same way).
        await userEvent.setup().click(within(shown()).getByRole('button', { name: 'Try again' }));
        await waitFor(() => expect(upstream.listingCalls.length).toBeGreaterThan(calls), {
          timeout: 10_000,
        });
        await waitFor(() => expect(shown()).not.toBeNull(), { timeout: 15_000 });
      } finally {
        await upstream.close();
      }
    }, 120_000);
  }
});
