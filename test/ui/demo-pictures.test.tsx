// @vitest-environment jsdom
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useDemoSandbox } from './support/demo';
import { renderApp } from './support/render-app';

const demo = useDemoSandbox();

describe("the demo's listing photos", () => {
  it('a listing page shows the slab picture the sandbox draws, from an address that answers it', async () => {
    const { harness, token } = demo;
    const list = (await (await harness.api('/listings.json?limit=50', { token })).json()) as {
      listings: { id: string; title: string }[];
    };
    let chosen: { id: string; title: string } | undefined;
    for (const listing of list.listings) {
      const one = (await (await harness.api(`/listings/${listing.id}.json`, { token })).json()) as {
        listing: { images?: unknown[] };
      };
      if (one.listing.images?.length) {
        chosen = listing;
        break;
      }
    }
    expect(chosen).toBeDefined();
    renderApp(`/listings/${chosen!.id}`, { baseUrl: harness.url, token });
    const photos = await screen.findByRole('list', { name: 'Photos' }, { timeout: 10_000 });
    const img = within(photos).getAllByRole('img')[0]!;
    const src = img.getAttribute('src')!;
    expect(src.startsWith(`${harness.url}/market/images/slabs/`)).toBe(true);
    const answer = await fetch(src, {
      headers: {
        'sec-fetch-site': 'cross-site',
        'sec-fetch-mode': 'no-cors',
        'sec-fetch-dest': 'image',
      },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(await answer.text()).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  });
});
