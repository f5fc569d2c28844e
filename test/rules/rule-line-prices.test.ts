import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  adjustedCents,
  adjustPrice,
  PRICE_ENDINGS,
  withEnding,
  type PriceChange,
} from '../../src/shared/price-math';
import type { RuleDefinition } from '../../src/shared/rule-definition';
import { planListing } from '../../src/server/rules/rule-plan';
import type { ListingFacts } from '../../src/server/rules/replica-listings';

/**
 * A rule's line plans without the words of each change (nobody reads them there): its prices must
 * be exactly those the explained plan (the preview, the run) gives.
 */

const change: fc.Arbitrary<PriceChange> = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), cents: fc.bigInt(0n, 200_000_000n) }),
  fc.record({
    kind: fc.constant('amount' as const),
    direction: fc.constantFrom('raise' as const, 'lower' as const),
    cents: fc.bigInt(0n, 200_000_000n),
  }),
  fc.record({
    kind: fc.constant('percent' as const),
    direction: fc.constantFrom('raise' as const, 'lower' as const),
    hundredths: fc.bigInt(0n, 10_000n),
  }),
);

const DAY_MS = 86_400_000;
const NOW = Date.UTC(2026, 6, 1, 12);

function listingOf(price: bigint, cost: bigint | null, ageDays: number): ListingFacts {
  return {
    id: 'lst_1',
    title: 'A slab',
    status: 'active',
    unavailableReason: null,
    canReactivate: false,
    priceCents: price,
    minimumOfferCents: null,
    acceptsOffers: true,
    promoted: false,
    isLot: false,
    grader: 'PSA',
    grade: '10',
    category: null,
    listedAt: NOW - ageDays * DAY_MS,
    cardId: null,
    costCents: cost,
  };
}

function markdown(step: { kind: 'percent'; percent: number } | { kind: 'amount'; amount: string }) {
  return (ending: 'cent' | '99' | 'whole'): RuleDefinition => ({
    name: 'Markdown',
    scope: {},
    action: { kind: 'markdown', afterDays: 10, step, everyDays: 7, ending },
    floor: {
      platformFeePercent: 12,
      margin: { kind: 'percent', percent: 10 },
      fixed: '10.00',
      withoutCost: 'fixed',
    },
    caps: { maxListings: 500, maxMarkdown: '1000000.00' },
    skipEditedWithinDays: 7,
    schedule: { daily: true, time: '06:00', timeZone: 'UTC' },
  });
}

describe('a rule line’s prices without words', () => {
  it('adjustedCents is the price withEnding(adjustPrice(...)) gives, null where it errs', () => {
    fc.assert(
      fc.property(
        fc.bigInt(0n, 200_000_000n),
        change,
        fc.constantFrom(...PRICE_ENDINGS),
        (price, how, ending) => {
          const explained = withEnding(adjustPrice(price, how), ending);
          expect(adjustedCents(price, how, ending)).toBe(
            explained.error === null ? explained.cents : null,
          );
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('a markdown planned without words changes the same prices as the explained plan', () => {
    const step = fc.oneof(
      fc.record({
        kind: fc.constant('percent' as const),
        percent: fc.integer({ min: 1, max: 75 }),
      }),
      fc.record({
        kind: fc.constant('amount' as const),
        amount: fc.integer({ min: 1, max: 500_000 }).map((c) => (c / 100).toFixed(2)),
      }),
    );
    fc.assert(
      fc.property(
        fc.bigInt(1_000n, 100_000_000n),
        fc.option(fc.bigInt(0n, 50_000_000n)),
        fc.integer({ min: 0, max: 90 }),
        step,
        fc.constantFrom(...PRICE_ENDINGS),
        (price, cost, age, how, ending) => {
          const rule = markdown(how)(ending);
          const listing = listingOf(price, cost, age);
          const context = {
            now: NOW,
            personEdits: new Map<string, number>(),
            lastChangedByRule: new Map<string, number>(),
            onSale: new Map<string, { originalCents: bigint; saleCents: bigint }>(),
          };
          const explained = planListing(rule, listing, context);
          const brief = planListing(rule, listing, { ...context, explain: false });
          expect({ ...brief, why: '' }).toEqual({ ...explained, why: '' });
          if (explained.kind === 'write') expect(explained.why).not.toBe('');
        },
      ),
      { numRuns: 2_000 },
    );
  });
});
