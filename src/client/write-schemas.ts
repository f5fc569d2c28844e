/**
 * The listing write bodies (POST and PUT), with the spec's bounds and input rules. Each field's
 * rule comes from `listing-rules.ts`, which the forms and the bulk grid use too. Kept apart from
 * the read schemas (`schemas.ts`, on `zod/mini`) so the first page's bundle never carries them:
 * the client itself needs only their types.
 */
import { z } from 'zod';
import {
  LISTING_LIMITS,
  MinimumOfferInput,
  PriceInput,
  checkOfferWithinPrice,
} from './listing-rules';
import { DURATION_HOURS, GRADERS } from './schemas';

const Grader = z.enum(GRADERS);
const DurationHours = z.literal(DURATION_HOURS);

const { card: CARD } = LISTING_LIMITS;

/** The minimum offer above the price, when both are sent (an input rule of the spec). */
function checkOffer(
  input: {
    price?: string | number | undefined;
    minimum_offer?: string | number | null | undefined;
  },
  ctx: z.RefinementCtx,
) {
  if (input.price === undefined || input.minimum_offer == null) return;
  checkOfferWithinPrice(
    { price: String(input.price), minimumOffer: String(input.minimum_offer), priceSent: true },
    ctx,
    { minimum_offer: 'minimum_offer', price: 'price' },
  );
}

export const ListingCreateInput = z
  .object({
    price: PriceInput,
    sku: z.string().min(1).optional(),
    inventory_item_id: z.string().min(1).optional(),
    grader: Grader.optional(),
    title: z.string().min(1).max(LISTING_LIMITS.title).optional(),
    description: z.string().max(LISTING_LIMITS.description).optional(),
    images: z
      .array(z.object({ src: z.string().url() }))
      .max(LISTING_LIMITS.images)
      .optional(),
    card: z
      .object({
        title: z.string().min(1).max(CARD.title),
        player: z.string().max(CARD.player).optional(),
        year: z.number().int().optional(),
        set: z.string().max(CARD.set).optional(),
        variant: z.string().max(CARD.variant).optional(),
        grade: z.string().max(CARD.grade).optional(),
        category: z.string().max(CARD.category).optional(),
      })
      .optional(),
    duration_hours: DurationHours.optional(),
    accepts_offers: z.boolean().optional(),
    minimum_offer: MinimumOfferInput.optional(),
    accepts_trades: z.boolean().optional(),
    auto_relist: z.boolean().optional(),
    promoted: z.boolean().optional(),
    scheduled_go_live_at: z.string().optional(),
  })
  .superRefine((input, ctx) => {
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
  });
export type ListingCreateInput = z.input<typeof ListingCreateInput>;

export const ListingUpdateInput = z
  .object({
    price: PriceInput.optional(),
    title: z.string().min(1).max(LISTING_LIMITS.title).optional(),
    description: z.string().max(LISTING_LIMITS.description).optional(),
    status: z.enum(['active', 'draft']).optional(),
    duration_hours: DurationHours.optional(),
    accepts_offers: z.boolean().optional(),
    minimum_offer: MinimumOfferInput.nullable().optional(),
    accepts_trades: z.boolean().optional(),
    auto_relist: z.boolean().optional(),
    promoted: z.boolean().optional(),
    scheduled_go_live_at: z.string().nullable().optional(),
  })
  .superRefine((input, ctx) => {
    if (input.scheduled_go_live_at !== undefined && input.status !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['scheduled_go_live_at'],
        message: 'cannot be changed together with status',
      });
    }
    checkOffer(input, ctx);
  });
export type ListingUpdateInput = z.input<typeof ListingUpdateInput>;
