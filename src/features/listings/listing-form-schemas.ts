import { z } from 'zod';
import { DURATION_HOURS, GRADERS } from '../../client';

/**
 * The listing forms' schemas: every field with the spec's bounds, checked before sending.
 * Form values are strings (inputs) and booleans (checkboxes); `toUpdatePatch` and
 * `toCreateInput` turn them into API bodies.
 */
const AMOUNT = /^\d+(\.\d{1,2})?$/;

export const priceField = z
  .string()
  .trim()
  .min(1, 'Enter a price')
  .regex(AMOUNT, 'Use dollars with at most 2 decimals, like 125.00')
  .refine((value) => Number(value) >= 10 && Number(value) <= 1_000_000, {
    message: 'The price must be from $10 to $1,000,000',
  });

/** An optional dollar amount: empty means none. */
export const minimumOfferField = z
  .string()
  .trim()
  .refine((value) => value === '' || AMOUNT.test(value), {
    message: 'Use dollars with at most 2 decimals, or leave empty',
  })
  .refine((value) => value === '' || Number(value) > 0, {
    message: 'The minimum offer must be more than $0',
  });

export const durationField = z
  .string()
  .refine(
    (value) => value === '' || (DURATION_HOURS as readonly number[]).includes(Number(value)),
    {
      message: 'Choose 7, 14, 21 or 30 days',
    },
  );

/** A `datetime-local` value, or empty; when given it must be in the future. */
export const goLiveField = z
  .string()
  .refine((value) => value === '' || !Number.isNaN(Date.parse(value)), {
    message: 'Enter a date and time',
  })
  .refine((value) => value === '' || Date.parse(value) > Date.now(), {
    message: 'The go-live time must be in the future',
  });

/**
 * An on/off term: a checkbox (boolean) when the current value is known, or a "set to" choice
 * when the API does not show it (`''` leaves it unchanged).
 */
export const setToField = z.union([z.boolean(), z.enum(['', 'yes', 'no'])]);
export type SetTo = z.infer<typeof setToField>;

export const EditListingForm = z.object({
  price: priceField,
  title: z.string().trim().min(1, 'The title cannot be empty').max(180, 'At most 180 characters'),
  description: z.string().max(1000, 'At most 1000 characters'),
  accepts_offers: setToField,
  minimum_offer: minimumOfferField,
  /** Only offered while the current minimum offer is not shown: remove whatever it is. */
  clear_minimum_offer: z.boolean(),
  accepts_trades: setToField,
  auto_relist: setToField,
  promoted: z.boolean(),
  duration_hours: durationField,
});
export type EditListingForm = z.infer<typeof EditListingForm>;
export const EDIT_FIELDS = Object.keys(EditListingForm.shape) as (keyof EditListingForm)[];

const httpsImage = z
  .string()
  .trim()
  .refine((value) => value === '' || /^https:\/\/[^\s/]+\.[^\s/]+\/\S+$/i.test(value), {
    message: 'Use a public https:// URL of the photo',
  });

const cardTitle = z.string().trim().max(180, 'At most 180 characters');

export const NewListingForm = z
  .object({
    source: z.enum(['sku', 'inventory_item_id']),
    sku: z.string().trim(),
    inventory_item_id: z.string().trim(),
    price: priceField,
    grader: z.union([z.enum(GRADERS), z.literal('')]),
    title: z.string().trim().max(180, 'At most 180 characters'),
    description: z.string().max(1000, 'At most 1000 characters'),
    images: z.array(z.object({ src: httpsImage })).max(5, 'At most 5 photos'),
    accepts_offers: z.boolean(),
    minimum_offer: minimumOfferField,
    accepts_trades: z.boolean(),
    auto_relist: z.boolean(),
    promoted: z.boolean(),
    duration_hours: durationField,
    scheduled_go_live_at: goLiveField,
    /** Create it scheduled a little ahead, to see the resolved card before it goes live. */
    review: z.boolean(),
    use_card: z.boolean(),
    card: z.object({
      title: cardTitle,
      player: z.string().trim().max(120, 'At most 120 characters'),
      year: z
        .string()
        .trim()
        .refine((v) => v === '' || (/^\d{4}$/.test(v) && Number(v) >= 1850 && Number(v) <= 2100), {
          message: 'A four-digit year',
        }),
      set: z.string().trim().max(120, 'At most 120 characters'),
      variant: z.string().trim().max(120, 'At most 120 characters'),
      grade: z.string().trim().max(20, 'At most 20 characters'),
      category: z.string().trim().max(40, 'At most 40 characters'),
    }),
  })
  .superRefine((form, ctx) => {
    if (form.source === 'sku' && form.sku === '') {
      ctx.addIssue({ code: 'custom', path: ['sku'], message: 'Enter the cert number' });
    }
    if (form.source === 'sku' && form.sku !== '' && !/^[A-Za-z0-9-]{4,20}$/.test(form.sku)) {
      ctx.addIssue({
        code: 'custom',
        path: ['sku'],
        message: 'A cert number is 4 to 20 letters or digits',
      });
    }
    if (form.source === 'inventory_item_id' && form.inventory_item_id === '') {
      ctx.addIssue({ code: 'custom', path: ['inventory_item_id'], message: 'Choose a card' });
    }
    if (form.use_card && form.source === 'sku') {
      if (form.card.title === '') {
        ctx.addIssue({
          code: 'custom',
          path: ['card', 'title'],
          message: 'The card title is required',
        });
      }
      if (form.grader === '') {
        ctx.addIssue({
          code: 'custom',
          path: ['grader'],
          message: 'Choose the grader when giving card details',
        });
      }
      if (!form.images.some((image) => image.src !== '')) {
        ctx.addIssue({
          code: 'custom',
          path: ['images'],
          message: 'Add at least one photo when giving card details',
        });
      }
    }
  });
export type NewListingForm = z.infer<typeof NewListingForm>;

export const NEW_LISTING_FIELDS = [
  'sku',
  'inventory_item_id',
  'price',
  'grader',
  'title',
  'description',
  'images',
  'accepts_offers',
  'minimum_offer',
  'accepts_trades',
  'auto_relist',
  'promoted',
  'duration_hours',
  'scheduled_go_live_at',
  'card.title',
  'card.player',
  'card.year',
  'card.set',
  'card.variant',
  'card.grade',
  'card.category',
] as const;
