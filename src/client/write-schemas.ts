/**
 * The listing write bodies (POST and PUT), with the spec's bounds: what forms and tests validate
 * against. Kept apart from the read schemas (`schemas.ts`, on `zod/mini`) so the first page's
 * bundle never carries them; the client itself needs only their types.
 */
import { z } from 'zod';
import { DURATION_HOURS, GRADERS } from './schemas';

const Grader = z.enum(GRADERS);
const DurationHours = z.literal(DURATION_HOURS);

const PRICE_PATTERN = /^\d+(\.\d{1,2})?$/;
/** A price as string or number: 10 to 1000000 dollars, at most 2 decimals. */
export const PriceInput = z.union([z.string(), z.number()]).superRefine((value, ctx) => {
  const text = typeof value === 'number' ? String(value) : value.trim();
  if (!PRICE_PATTERN.test(text)) {
    ctx.addIssue({ code: 'custom', message: 'must be an amount with at most 2 decimals' });
    return;
  }
  const amount = Number(text);
  if (amount < 10 || amount > 1_000_000) {
    ctx.addIssue({ code: 'custom', message: 'must be from 10 to 1000000' });
  }
});

export const ListingCreateInput = z
  .object({
    price: PriceInput,
    sku: z.string().min(1).optional(),
    inventory_item_id: z.string().min(1).optional(),
    grader: Grader.optional(),
    title: z.string().min(1).max(180).optional(),
    description: z.string().max(1000).optional(),
    images: z
      .array(z.object({ src: z.string().url() }))
      .max(5)
      .optional(),
    card: z
      .object({
        title: z.string().min(1).max(180),
        player: z.string().max(120).optional(),
        year: z.number().int().optional(),
        set: z.string().max(120).optional(),
        variant: z.string().max(120).optional(),
        grade: z.string().max(20).optional(),
        category: z.string().max(40).optional(),
      })
      .optional(),
    duration_hours: DurationHours.optional(),
    accepts_offers: z.boolean().optional(),
    minimum_offer: z.union([z.string(), z.number()]).optional(),
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
  });
export type ListingCreateInput = z.input<typeof ListingCreateInput>;

export const ListingUpdateInput = z
  .object({
    price: PriceInput.optional(),
    title: z.string().min(1).max(180).optional(),
    description: z.string().max(1000).optional(),
    status: z.enum(['active', 'draft']).optional(),
    duration_hours: DurationHours.optional(),
    accepts_offers: z.boolean().optional(),
    minimum_offer: z.union([z.string(), z.number()]).nullable().optional(),
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
  });
export type ListingUpdateInput = z.input<typeof ListingUpdateInput>;
