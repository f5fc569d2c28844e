import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_LIVE_TOKEN } from '../../src/sandbox';
import { contentSecurityPolicy } from '../../src/server/security-headers';
import { startHarness, type Harness } from '../support/sandbox-harness';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({ seed: 'demo', rateLimit: false });
});
afterAll(() => harness?.close());

interface ListingWithImages {
  id: string;
  card: { cert_number: string; title: string };
  images?: { src: string }[];
}

/** A demo listing with a photo, in the single view (the one that carries `images`). */
async function listingWithPhoto(): Promise<ListingWithImages & { images: { src: string }[] }> {
  const list = (await (
    await harness.api('/listings.json?limit=50', { token: DEMO_LIVE_TOKEN })
  ).json()) as {
    listings: { id: string }[];
  };
  for (const { id } of list.listings) {
    const one = (await (
      await harness.api(`/listings/${id}.json`, { token: DEMO_LIVE_TOKEN })
    ).json()) as {
      listing: ListingWithImages;
    };
    if (one.listing.images?.length)
      return one.listing as ListingWithImages & { images: { src: string }[] };
  }
  throw new Error('no demo listing with a photo');
}

const asImage = {
  'sec-fetch-site': 'cross-site',
  'sec-fetch-mode': 'no-cors',
  'sec-fetch-dest': 'image',
};

describe("the sandbox's own slab pictures", () => {
  it("a demo listing's photo is this sandbox's address, and answers a well-formed SVG of the slab", async () => {
    const listing = await listingWithPhoto();
    const src = listing.images[0]!.src;
    expect(src).toBe(`${harness.url}/market/images/slabs/${listing.card.cert_number}.svg`);
    expect(src).not.toContain('images.sandbox.example');

    // As a dashboard page on another origin loads it: a cross-site no-cors image request.
    const response = await fetch(src, { headers: asImage });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(response.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(response.headers.get('content-security-policy')).toBe(
      "default-src 'none'; style-src 'unsafe-inline'",
    );
    const svg = await response.text();
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.endsWith('</svg>')).toBe(true);
    expect(svg).toContain(`#${listing.card.cert_number}`);
    expect(svg).not.toMatch(/<script|href=|url\(/i);
    // Every element closes: the tags balance (a well-formed document, no parser at hand in Node).
    const opened = [...svg.matchAll(/<([a-z]+)[\s>](?![^<]*\/>)/g)].map((m) => m[1]);
    const closed = [...svg.matchAll(/<\/([a-z]+)>/g)].map((m) => m[1]);
    expect(opened.sort()).toEqual(closed.sort());
  });

  it('refuses what is not an image load from another site, and an unknown cert', async () => {
    const listing = await listingWithPhoto();
    const src = listing.images[0]!.src;
    const asPage = await fetch(src, {
      headers: {
        'sec-fetch-site': 'cross-site',
        'sec-fetch-mode': 'cors',
        'sec-fetch-dest': 'empty',
      },
    });
    expect(asPage.status).toBe(403);
    const unknown = await fetch(`${harness.url}/market/images/slabs/0000000000.svg`, {
      headers: asImage,
    });
    expect(unknown.status).toBe(404);
    const notSvg = await fetch(`${harness.url}/market/images/slabs/..%2Fx.svg`, {
      headers: asImage,
    });
    expect(notSvg.status).toBe(404);
  });

  it("the dashboard's page policy lets in the embedded sandbox's pictures, and only that address", () => {
    const csp = contentSecurityPolicy({ imageOrigins: ['http://127.0.0.1:4321'] });
    expect(csp).toContain("img-src 'self' https: data: http://127.0.0.1:4321;");
    expect(contentSecurityPolicy({})).toContain("img-src 'self' https: data:;");
  });
});
