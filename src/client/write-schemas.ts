/** The listing write bodies (POST, PUT); apart from the read schemas to keep them off page one. */
import * as z from 'zod/mini';
import {
  LISTING_LIMITS,
  MinimumOfferInput,
  PriceInput,
  checkOfferWithinPrice,
} from './listing-rules';
import { DurationHours, Grader } from './schemas';

const { card: CARD } = LISTING_LIMITS;

/** The minimum offer above the price, when both are sent (an input rule of the spec). */
function checkOffer(
  input: {
    price?: string | number | undefined;
    minimum_offer?: string | number | null | undefined;
  },
  ctx: Pick<z.core.$RefinementCtx, 'addIssue'>,
) {
  if (input.price === undefined || input.minimum_offer == null) return;
  checkOfferWithinPrice(
    { price: String(input.price), minimumOffer: String(input.minimum_offer), priceSent: true },
    ctx,
    { minimum_offer: 'minimum_offer', price: 'price' },
  );
}

/** Text of `min` to `max` characters. */
const text = (max: number, min = 0) =>
  z.string().check(...(min > 0 ? [z.minLength(min)] : []), z.maxLength(max));
/** A URL as `new URL` reads it (zod's URL format brings all its formats). */
const urlText = z.string().check(z.refine((value) => URL.canParse(value), 'Invalid URL'));

export const ListingCreateInput = z
  .object({
    price: PriceInput,
    sku: z.optional(z.string().check(z.minLength(1))),
    inventory_item_id: z.optional(z.string().check(z.minLength(1))),
    grader: z.optional(Grader),
    title: z.optional(text(LISTING_LIMITS.title, 1)),
    description: z.optional(text(LISTING_LIMITS.description)),
    images: z.optional(
      z.array(z.object({ src: urlText })).check(z.maxLength(LISTING_LIMITS.images)),
    ),
    card: z.optional(
      z.object({
        title: text(CARD.title, 1),
        player: z.optional(text(CARD.player)),
        year: z.optional(z.int()),
        set: z.optional(text(CARD.set)),
        variant: z.optional(text(CARD.variant)),
        grade: z.optional(text(CARD.grade)),
        category: z.optional(text(CARD.category)),
      }),
    ),
    duration_hours: z.optional(DurationHours),
    accepts_offers: z.optional(z.boolean()),
    minimum_offer: z.optional(MinimumOfferInput),
    accepts_trades: z.optional(z.boolean()),
    auto_relist: z.optional(z.boolean()),
    promoted: z.optional(z.boolean()),
    scheduled_go_live_at: z.optional(z.string()),
  })
  .check(
    z.superRefine((input, ctx) => {
      const hasSku = input.sku !== undefined;
      const hasItem = input.inventory_item_id !== undefined;
      if (hasSku === hasItem) {
        ctx.addIssue({
          code: 'custom',
          path: [hasSku ? 'inventory_item_id' : 'sku'],
          message: 'give exactly one of sku and inventory_item_id',
        });
      }
      if (input.card && hasItem) {
        ctx.addIssue({
          code: 'custom',
          path: ['card'],
          message: 'cannot be used with inventory_item_id',
        });
      }
      if (input.card && !input.grader) {
        ctx.addIssue({ code: 'custom', path: ['grader'], message: 'is required with card' });
      }
      if (input.card && (input.images?.length ?? 0) === 0) {
        ctx.addIssue({
          code: 'custom',
          path: ['images'],
          message: 'at least 1 is required with card',
        });
      }
      checkOffer(input, ctx);
    }),
  );
export type ListingCreateInput = z.input<typeof ListingCreateInput>;

export const ListingUpdateInput = z
  .object({
    price: z.optional(PriceInput),
    title: z.optional(text(LISTING_LIMITS.title, 1)),
    description: z.optional(text(LISTING_LIMITS.description)),
    status: z.optional(z.enum(['active', 'draft'])),
    duration_hours: z.optional(DurationHours),
    accepts_offers: z.optional(z.boolean()),
    minimum_offer: z.optional(z.nullable(MinimumOfferInput)),
    accepts_trades: z.optional(z.boolean()),
    auto_relist: z.optional(z.boolean()),
    promoted: z.optional(z.boolean()),
    scheduled_go_live_at: z.optional(z.nullable(z.string())),
  })
  .check(
    z.superRefine((input, ctx) => {
      if (input.scheduled_go_live_at !== undefined && input.status !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['scheduled_go_live_at'],
          message: 'cannot be changed together with status',
        });
      }
      checkOffer(input, ctx);
    }),
  );
export type ListingUpdateInput = z.input<typeof ListingUpdateInput>;
