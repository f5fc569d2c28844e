import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningAppServer } from '../../src/server/app-server';
import { RuleDefinition } from '../../src/shared/rule-definition';
import { planRule } from '../../src/server/rules/rule-plan';
import type { ListingFacts } from '../../src/server/rules/replica-listings';
import {
  finished,
  hub,
  listing,
  makeListings,
  startServer,
  startWorld,
  type World,
} from './rules-world';

/**
 * The floor, checked independently of the code under test: the payout (price less the fee the
 * marketplace takes, rounded half up to the cent) covers cost and margin, and the price is at least
 * the fixed amount.
 */
function coversFloor(
  priceCents: number,
  costCents: number,
  feePercent: number,
  promoted: boolean,
  marginPercent: number,
  fixedCents: number,
): boolean {
  const feeBp = Math.round(feePercent * 100) + (promoted ? 300 : 0);
  const fee = Math.floor((priceCents * feeBp * 2 + 10_000) / 20_000);
  const margin = Math.ceil((costCents * Math.round(marginPercent * 100)) / 10_000);
  return priceCents - fee >= costCents + margin && priceCents >= fixedCents;
}

const money = (cents: number) => (cents / 100).toFixed(2);

describe('the floor is never crossed', () => {
  it('over generated listings, costs, fees, margins and steps (the planner)', () => {
    const listingArb = fc.record({
      priceCents: fc.integer({ min: 1_000, max: 5_000_000 }),
      costCents: fc.integer({ min: 1, max: 2_000_000 }),
      promoted: fc.boolean(),
      acceptsOffers: fc.boolean(),
    });
    fc.assert(
      fc.property(
        fc.array(listingArb, { minLength: 1, maxLength: 20 }),
        fc.integer({ min: 0, max: 2500 }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: 1_000, max: 100_000 }),
        fc.oneof(
          fc.record({
            kind: fc.constant('markdown' as const),
            step: fc.integer({ min: 1, max: 7500 }),
            ending: fc.constantFrom('cent', '99', 'whole'),
          }),
          fc.record({
            kind: fc.constant('sale' as const),
            step: fc.integer({ min: 100, max: 7500 }),
            ending: fc.constantFrom('cent', '99', 'whole'),
          }),
          fc.record({
            kind: fc.constant('offer_floor' as const),
            step: fc.integer({ min: 100, max: 10_000 }),
            ending: fc.constant('cent'),
          }),
        ),
        (rows, feeHundredths, marginHundredths, fixedCents, act) => {
          const now = Date.now();
          const action =
            act.kind === 'markdown'
              ? {
                  kind: 'markdown',
                  afterDays: 0,
                  everyDays: 1,
                  ending: act.ending,
                  step: { kind: 'percent', percent: act.step / 100 },
                }
              : act.kind === 'sale'
                ? {
                    kind: 'sale',
                    percent: act.step / 100,
                    startsAt: new Date(now - 1000).toISOString(),
                    endsAt: new Date(now + 86_400_000).toISOString(),
                    ending: act.ending,
                  }
                : { kind: 'offer_floor', percent: act.step / 100, turnOnAfterDays: 0 };
          const rule = RuleDefinition.parse({
            name: 'generated',
            action,
            floor: {
              platformFeePercent: feeHundredths / 100,
              margin: { kind: 'percent', percent: marginHundredths / 100 },
              fixed: money(fixedCents),
            },
            caps: { maxListings: 100 },
          });
          const listings: ListingFacts[] = rows.map((row, i) => ({
            id: `l${i}`,
            title: `l${i}`,
            status: 'active',
            unavailableReason: null,
            canReactivate: false,
            priceCents: BigInt(row.priceCents),
            minimumOfferCents: null,
            acceptsOffers: row.acceptsOffers,
            promoted: row.promoted,
            isLot: false,
            grader: 'PSA',
            grade: '10',
            category: 'baseball',
            listedAt: now - 90 * 86_400_000,
            cardId: null,
            costCents: BigInt(row.costCents),
          }));
          const plan = planRule(rule, listings, {
            now,
            personEdits: new Map(),
            lastChangedByRule: new Map(),
            onSale: new Map(),
          });
          for (const item of plan) {
            const row = rows[Number(item.listingId.slice(1))]!;
            if (item.kind !== 'write') continue;
            const value = item.after.price ?? item.after.minimum_offer;
            expect(typeof value).toBe('string');
            const cents = Math.round(Number(value) * 100);
            expect(
              coversFloor(
                cents,
                row.costCents,
                feeHundredths / 100,
                row.promoted,
                marginHundredths / 100,
                fixedCents,
              ),
            ).toBe(true);
            // A markdown never raises a price, an offer floor never goes above it.
            if (item.after.price !== undefined) expect(cents).toBeLessThanOrEqual(row.priceCents);
            else expect(cents).toBeLessThanOrEqual(row.priceCents);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('a price ending never turns a small markdown into a raise (found by the property above)', () => {
    const now = Date.now();
    const rule = RuleDefinition.parse({
      name: 'tiny step',
      action: {
        kind: 'markdown',
        afterDays: 0,
        everyDays: 1,
        ending: '99',
        step: { kind: 'percent', percent: 0.01 },
      },
      floor: { platformFeePercent: 0, margin: { kind: 'percent', percent: 0 }, fixed: '10.00' },
    });
    const [item] = planRule(
      rule,
      [
        {
          id: 'l0',
          title: 'l0',
          status: 'active',
          unavailableReason: null,
          canReactivate: false,
          // 116.60 − 0.01 % = 116.59, which ends in .99 as 116.99: above the price.
          priceCents: 11_660n,
          minimumOfferCents: null,
          acceptsOffers: false,
          promoted: false,
          isLot: false,
          grader: 'PSA',
          grade: '10',
          category: 'baseball',
          listedAt: now - 90 * 86_400_000,
          cardId: null,
          costCents: 100n,
        },
      ],
      { now, personEdits: new Map(), lastChangedByRule: new Map(), onSale: new Map() },
    );
    expect(item).toMatchObject({ kind: 'skip', reason: 'unchanged' });
  });

  describe('over HTTP, on generated listings in the sandbox', () => {
    let world: World;
    let server: RunningAppServer;
    beforeAll(async () => {
      world = await startWorld();
      server = await startServer(world);
    });
    afterAll(async () => {
      await server?.close();
      await world?.harness.close();
    });

    it('a deep markdown stops every listing at or above its floor', async () => {
      const specs = fc.sample(
        fc.record({
          price: fc.integer({ min: 2_000, max: 200_000 }),
          cost: fc.integer({ min: 500, max: 150_000 }),
          promoted: fc.boolean(),
        }),
        { numRuns: 24, seed: 44 },
      );
      const made = await makeListings(
        world,
        'FC-1',
        specs.map((s) => ({ price: money(s.price), cost: money(s.cost), promoted: s.promoted })),
      );
      const created = await hub<{ rule: { id: number } }>(server, 'POST', '', {
        name: 'Deep cut',
        scope: { grade: 'FC-1' },
        action: {
          kind: 'markdown',
          afterDays: 0,
          everyDays: 1,
          ending: '99',
          step: { kind: 'percent', percent: 75 },
        },
        floor: { platformFeePercent: 12, margin: { kind: 'percent', percent: 5 }, fixed: '12.00' },
      });
      const run = await hub<{ run: { id: number } }>(
        server,
        'POST',
        `/${created.body.rule.id}/run`,
      );
      const done = await finished(server, run.body.run.id);
      expect(done.run.counts.failed).toBe(0);
      expect(done.run.counts.changed).toBeGreaterThan(0);
      for (const [i, m] of made.entries()) {
        const spec = specs[i]!;
        const now = await listing(world, m.id);
        const cents = Math.round(Number(now.price) * 100);
        // Left alone where the price was already at or under the floor; else lowered, never below.
        if (cents !== spec.price)
          expect(coversFloor(cents, spec.cost, 12, spec.promoted, 5, 1_200)).toBe(true);
        expect(cents).toBeLessThanOrEqual(spec.price);
      }
    });
  });
});
