import type { Store } from '../store';
import type { ItemHold, ListingStatus, Scope } from '../store/rows';
import { createSeller, mintKey } from '../domain/accounts';
import { seededIds, seededRandom } from '../domain/ids';
import { createInventoryItem } from '../domain/inventory';
import { insertListing, DURATIONS, type ListingStart } from '../domain/listings';
import {
  advanceOrder,
  cancelOrder,
  refundOrder,
  sellListing,
  CANCEL_REASONS,
} from '../domain/marketplace';
import { DAY_MS, HOUR_MS } from '../platform/time';
import { ALL_SCOPES } from '../platform/scopes';
import { GRADES, SUBJECTS, gradeFactor, variantsFor } from './card-catalog';
import { DEMO_UNLISTED_CERTS } from './demo-certs';

export const DEMO_SELLER_ID = 'slr_demo';
/** The demo keys' tokens are fixed so the dashboard's dev proxy can use them on a fresh machine. */
export const DEMO_LIVE_TOKEN = 'svc_live_SlabdeskDemoLiveKey0000000000000001';
export const DEMO_TEST_TOKEN = 'svc_test_SlabdeskDemoTestKey0000000000000001';

interface DemoSeedOptions {
  /** How many live-mode listings to create (about a third of them sold). Default 600. */
  listings?: number;
  /** The share of the live listings that sold, each an order (default 1/3, at most 0.8). */
  soldShare?: number | undefined;
}

type Fate =
  'active' | 'draft' | 'scheduled' | 'pending_review' | 'deactivated' | 'expired' | 'sold';

interface Event {
  at: number;
  order: number;
  run: (now: number) => void;
}

/** Seeds the demo seller deterministically through the domain functions, so all is consistent. */
export function seedDemo(store: Store, now: number, options: DemoSeedOptions = {}): void {
  const random = seededRandom(20260701);
  const ids = seededIds(seededRandom(7));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const between = (lo: number, hi: number) => lo + random() * (hi - lo);
  const listingCount = Math.max(10, options.listings ?? 600);
  const certsUsed = new Set<string>();
  const soldShare = Math.min(0.8, Math.max(0, options.soldShare ?? 1 / 3));

  const seller = createSeller(store, ids, now - 400 * DAY_MS, {
    id: DEMO_SELLER_ID,
    name: 'Northside Slabs',
  });
  for (const [mode, token] of [
    ['live', DEMO_LIVE_TOKEN],
    ['test', DEMO_TEST_TOKEN],
  ] as const) {
    mintKey(store, ids, now - 30 * DAY_MS, {
      sellerId: seller.id,
      mode,
      scopes: ALL_SCOPES,
      token,
    });
  }
  for (const cert of DEMO_UNLISTED_CERTS) {
    store.catalog.putCert({ ...cert, card_set: cert.set, variant: 'Base' });
    certsUsed.add(cert.cert_number);
  }

  function certNumber(grader: string): string {
    const digits = grader === 'PSA' ? 8 : grader === 'SGC' ? 7 : 10;
    let cert: string;
    do cert = ids.chars(digits, '0123456789').replace(/^0/, '1');
    while (certsUsed.has(cert));
    certsUsed.add(cert);
    return cert;
  }

  function newCard(scope: Scope, at: number, grader: string, hold: ItemHold | null = null) {
    const subject = pick(SUBJECTS);
    const [set, year] = pick(subject.sets);
    const grade = pick(GRADES[grader]!);
    const variant = pick(variantsFor(subject.category));
    const number = 1 + Math.floor(random() * 350);
    const title = `${year} ${set} ${subject.name}${variant === 'Base' ? '' : ` ${variant}`} #${number} ${grader} ${grade}`;
    const card = {
      cert_number: certNumber(grader),
      grader,
      grade,
      title,
      player: subject.name,
      year,
      set,
      variant,
      category: subject.category,
    };
    store.catalog.putCert({ ...card, card_set: set });
    const value = subject.value * gradeFactor(grade) * between(0.7, 1.3);
    const item = createInventoryItem(store, ids, at, scope, {
      ...card,
      cost_cents: Math.round(value * between(0.4, 0.8)) * 100,
      hold,
    });
    return { item, value, title };
  }

  const priceCents = (value: number) =>
    Math.max(1000, Math.round(value) * 100 - (random() < 0.5 ? 1 : 0));
  const graderFor = (fate: Fate) =>
    fate === 'pending_review'
      ? pick(['SGC', 'CGC'])
      : pick(['PSA', 'PSA', 'PSA', 'PSA', 'PSA', 'BGS', 'BGS', 'SGC', 'SGC', 'CGC']);

  const events = new EventQueue();
  let sequence = 0;
  const at = (time: number, run: (now: number) => void) =>
    events.push({ at: time, order: sequence++, run });

  /** Where a listing of each fate starts, created at `t` (random draws only where needed). */
  const startOf = (fate: Fate, t: number, duration: number): ListingStart => {
    const inactive = (status: ListingStatus, reason: string, listedAt: number | null) =>
      ({ kind: 'inactive', status, reason, listedAt }) as const;
    switch (fate) {
      case 'active':
        return {
          kind: 'live',
          listedAt: Math.max(t, now - between(0.05, 0.9) * duration * HOUR_MS),
        };
      case 'sold':
        return { kind: 'live', listedAt: t };
      case 'scheduled':
        return { kind: 'scheduled', goLiveAt: now + between(1, 14) * DAY_MS };
      case 'pending_review':
        return { kind: 'pending_review' };
      case 'draft':
        return inactive('draft', 'draft', null);
      case 'deactivated':
        return inactive('archived', 'deactivated_by_seller', t);
      case 'expired':
        return inactive('archived', 'expired', t);
    }
  };

  function planListings(scope: Scope, count: number, span: number) {
    const fates: Fate[] = [];
    const share = (fate: Fate, fraction: number) => {
      for (let i = 0; i < Math.round(count * fraction); i++) fates.push(fate);
    };
    share('sold', scope.test ? 1 / 3 : soldShare);
    share('draft', 0.03);
    share('scheduled', 0.02);
    share('pending_review', 0.03);
    share('deactivated', 0.06);
    share('expired', 0.05);
    while (fates.length < count) fates.push('active');
    fates.length = count;
    for (let i = fates.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [fates[i], fates[j]] = [fates[j]!, fates[i]!];
    }
    const start = now - span;
    fates.forEach((fate, index) => {
      const created = start + (index / count) * (span - 2 * DAY_MS) + between(0, HOUR_MS);
      planListing(scope, fate, created);
    });
  }

  function planListing(scope: Scope, fate: Fate, created: number) {
    const grader = graderFor(fate);
    const lotSize = fate !== 'pending_review' && random() < 0.05 ? 2 + Math.floor(random() * 3) : 1;
    const duration = pick(DURATIONS);
    const offers = random() < 0.75;
    const promoted = random() < 0.08;
    const autoRelist = random() < 0.3;
    const imagesFor = (cert: string) =>
      random() < 0.85 ? [`https://images.sandbox.example/slabs/${cert}-front.jpg`] : [];
    at(created, (t) => {
      const cards = Array.from({ length: lotSize }, () => newCard(scope, t, grader));
      const value = cards.reduce((sum, c) => sum + c.value, 0) * (lotSize > 1 ? 0.9 : 1);
      const price = priceCents(value);
      const title =
        lotSize > 1
          ? `Lot of ${lotSize}: ${cards.map((c) => c.title.split(' #')[0]).join(' / ')}`.slice(
              0,
              180,
            )
          : cards[0]!.title;
      const listingStart = startOf(fate, t, duration);
      const listing = insertListing(
        store,
        ids,
        t,
        scope,
        cards.map((c) => c.item.id),
        {
          title,
          description:
            random() < 0.6
              ? `${cards[0]!.title}. Sharp corners, centered, no print lines. Ships in a team bag and box.`
              : '',
          price_cents: price,
          minimum_offer_cents:
            offers && random() < 0.5 ? Math.round((price * 0.8) / 100) * 100 : null,
          accepts_offers: offers,
          accepts_trades: random() < 0.15,
          auto_relist: autoRelist,
          promoted,
          duration_hours: duration,
          images: imagesFor(cards[0]!.item.cert_number),
        },
        listingStart,
      );
      if (fate === 'sold') planSale(listing.id, t);
    });
  }

  function planSale(listingId: string, listedAt: number) {
    const via = random() < 0.7 ? 'checkout' : 'offer';
    const roll = random();
    const target = roll < 0.15 ? 0 : roll < 0.5 ? 1 + Math.floor(random() * 5) : 6;
    const cancelled = random() < 0.08;
    // Orders still in progress were sold recently (a seller ships within days, or the sale is
    // cancelled); finished ones may be old.
    const recent = now - (target * 1.6 + between(0.1, 1.2)) * DAY_MS;
    const soldAt =
      target < 6 && !cancelled
        ? Math.min(now - HOUR_MS, Math.max(listedAt + HOUR_MS, recent))
        : Math.min(now - HOUR_MS, listedAt + between(0.2, 6) * DAY_MS);
    const refund = random();
    const ctx = (t: number) => ({ store, ids, now: t });
    at(soldAt, (t) => {
      const order = sellListing(ctx(t), listingId, via);
      if (cancelled) {
        at(Math.min(now - 60_000, t + DAY_MS), (c) =>
          cancelOrder(ctx(c), order.id, pick(CANCEL_REASONS)),
        );
        return;
      }
      let stageAt = t;
      for (let stage = 1; stage <= target; stage++) {
        stageAt += between(0.6, 2.2) * DAY_MS;
        if (stageAt >= now) break;
        at(stageAt, (s) => advanceOrder(ctx(s), order.id));
      }
      if (target >= 3 && refund < 0.1) {
        const amount = refund < 0.05 ? null : Math.max(100, Math.round(order.subtotal_cents * 0.1));
        at(Math.min(now - 60_000, stageAt + HOUR_MS), (r) => refundOrder(ctx(r), order.id, amount));
      }
    });
  }

  function planUnlisted(scope: Scope, count: number, span: number) {
    const holds: ItemHold[] = [
      'flagged',
      'flagged',
      'pulled_into_pack',
      'in_trade',
      'awaiting_review',
    ];
    for (let i = 0; i < count; i++) {
      const grader = graderFor('active');
      at(now - span + (i / count) * span, (t) => newCard(scope, t, grader, holds[i] ?? null));
    }
  }

  const liveScope: Scope = { sellerId: seller.id, test: false };
  const testScope: Scope = { sellerId: seller.id, test: true };
  planListings(liveScope, listingCount, 120 * DAY_MS);
  planUnlisted(liveScope, Math.max(10, Math.round(listingCount / 7.5)), 100 * DAY_MS);
  planListings(testScope, Math.max(10, Math.round(listingCount / 20)), 20 * DAY_MS);
  planUnlisted(testScope, 10, 20 * DAY_MS);

  store.transaction(() => {
    // Events may schedule later events (a sale plans its stages), so drain in time order.
    for (let next = events.pop(); next; next = events.pop()) next.run(Math.round(next.at));
  });
}

/** A binary min-heap of events by time, then by the order they were planned. */
class EventQueue {
  private readonly heap: Event[] = [];
  private before(a: Event, b: Event): boolean {
    return a.at < b.at || (a.at === b.at && a.order < b.order);
  }
  push(event: Event): void {
    const heap = this.heap;
    heap.push(event);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(heap[i]!, heap[parent]!)) break;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  }
  pop(): Event | undefined {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop();
    if (heap.length > 0 && last) {
      heap[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < heap.length && this.before(heap[l]!, heap[m]!)) m = l;
        if (r < heap.length && this.before(heap[r]!, heap[m]!)) m = r;
        if (m === i) break;
        [heap[i], heap[m]] = [heap[m]!, heap[i]!];
        i = m;
      }
    }
    return top;
  }
}
