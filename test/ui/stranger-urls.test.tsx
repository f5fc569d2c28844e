// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Harness } from '../support/sandbox-harness';
import { startRewritingUpstream, type RewritingUpstream } from '../support/rewriting-upstream';
import { findProduct, startDemo } from './support/demo';
import { readAll } from './support/read-all';
import { renderApp } from './support/render-app';

/**
 * The finding "a listing's, a card's, a photo's or a shipping label's URL from the server is
 * drawn as a link or an image whatever it says": an address a stranger's server wrote
 * (`javascript:`, `data:text/html`, `vbscript:`, a control character before the scheme) was put
 * in `href` and `src` as given. Only a web address (http or https) is drawn; any other is said to
 * be unreadable, as any field sent in a form the page cannot read.
 */
const HOSTILE = [
  'javascript:alert(document.cookie)',
  ' java\tscript:alert(1)',
  '\u0001javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:msgbox(1)',
  'JaVaScRiPt:alert(1)',
];

let harness: Harness;
let token: string;
let upstream: RewritingUpstream;
/** Which hostile address each rewritten answer carries: every page is tried with each. */
let which = 0;

beforeAll(async () => {
  ({ harness, token } = await startDemo());
  upstream = await startRewritingUpstream(
    harness.url,
    (path) => /\/(listings|orders)\/[^/?]+(\?|$)/.test(path),
    (_path, body) => {
      const bad = HOSTILE[which % HOSTILE.length]!;
      const listing = body.listing as Record<string, unknown> | undefined;
      if (listing) {
        listing.url = bad;
        if (listing.card && typeof listing.card === 'object') {
          (listing.card as Record<string, unknown>).url = bad;
        }
        listing.images = [{ id: 'img-1', position: 1, src: bad }];
      }
      const order = body.order as Record<string, unknown> | undefined;
      const shipment = order?.svc_seller_shipment as Record<string, unknown> | undefined;
      if (shipment) shipment.label_url = bad;
      return true;
    },
  );
});
afterEach(() => cleanup());
afterAll(async () => {
  await upstream?.close();
  await harness?.close();
});

/** Every address the page put in an `href` or `src`, as the browser would read it. */
function addresses(): string[] {
  return [...document.querySelectorAll('[href], [src]')].map(
    (element) => element.getAttribute('href') ?? element.getAttribute('src') ?? '',
  );
}

/** A web address or a path of the app's own: nothing else is ever followed or loaded. */
const isSafe = (address: string) => /^(https?:\/\/|\/(?!\/)|#|\?)/i.test(address);

describe('addresses a server wrote', () => {
  it('a listing whose public page, card page and photo are not web addresses links none of them', async () => {
    const listing = await findProduct(
      harness,
      token,
      (p) => p.status === 'active' && !p.svc_is_lot,
    );
    for (let index = 0; index < HOSTILE.length; index++) {
      which = index;
      const view = renderApp(`/listings/${listing.id}`, { baseUrl: upstream.url, token });
      await screen.findByRole('heading', { name: listing.title, level: 1 }, { timeout: 10_000 });
      const terms = screen.getByRole('region', { name: 'Sale terms' });
      expect(within(terms).queryByRole('link', { name: 'View on the marketplace' })).toBeNull();
      expect(within(terms).getByText('Could not be read')).toBeInTheDocument();
      const card = screen.getByRole('region', { name: 'The card' });
      expect(within(card).queryByRole('link', { name: 'Public card page' })).toBeNull();
      expect(within(card).queryByRole('img')).toBeNull();
      expect(addresses().filter((address) => !isSafe(address))).toEqual([]);
      view.unmount();
    }
  });

  it('an order whose shipping label is not a web address links no label', async () => {
    const orders = await readAll<{ name: string }>(
      harness,
      token,
      '/orders.json?status=any',
      'orders',
    );
    const order = orders[0]!;
    for (let index = 0; index < HOSTILE.length; index++) {
      which = index;
      const view = renderApp(`/orders/${order.name}`, { baseUrl: upstream.url, token });
      await screen.findByRole('heading', { name: `Order ${order.name}` }, { timeout: 10_000 });
      expect(screen.queryByRole('link', { name: 'Shipping label' })).toBeNull();
      expect(addresses().filter((address) => !isSafe(address))).toEqual([]);
      view.unmount();
    }
  });
});
