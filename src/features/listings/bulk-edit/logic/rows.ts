import * as z from 'zod/mini';
import { isSoldReason, type CatalogueRow } from '../../catalogue/catalogue-row';
import { DURATION_HOURS } from '../../../../client';
import {
  checkOfferWithinPrice,
  descriptionText,
  minimumOfferText,
  priceText,
  titleText,
} from '../../../../client/listing-rules';

export const EDIT_STATUSES = ['active', 'draft', 'inactive'] as const;
export type EditStatus = (typeof EDIT_STATUSES)[number];
export const DURATIONS = DURATION_HOURS.map(String) as ['168', '336', '504', '720'];
export type DurationText = (typeof DURATIONS)[number];

/** Why a listing cannot be edited in bulk, or null when it can. */
export function exclusionReason(row: CatalogueRow): string | null {
  if (row.state === 'sold' || (row.status === 'archived' && isSoldReason(row.reason))) {
    return 'sold: a sold listing cannot be changed';
  }
  const read = { title: row.title, status: row.status, price: row.priceText };
  const missing = (['title', 'status', 'price'] as const).filter((field) => !read[field]);
  if (missing.length > 0 || row.status === undefined) {
    return `its ${missing.join(' and ')} could not be read`;
  }
  if (row.status === 'archived' && row.reason === undefined) {
    return 'why it is off the marketplace could not be read (it may have sold)';
  }
  if (!['active', 'draft', 'archived'].includes(row.status)) {
    return `${row.status.replace(/_/g, ' ')}: only active, draft and inactive listings can be edited`;
  }
  return null;
}

export function toEditValues(row: CatalogueRow): EditValues {
  const duration = String(row.durationHours);
  return {
    id: row.id,
    title: row.title ?? '',
    price: row.priceText ?? '',
    minimumOffer: row.minimumOffer ?? '',
    acceptsOffers: row.offers ?? null,
    acceptsTrades: row.trades ?? null,
    autoRelist: row.autoRelist ?? null,
    status: row.status === 'active' || row.status === 'draft' ? row.status : 'inactive',
    durationHours: (DURATIONS as readonly string[]).includes(duration)
      ? (duration as DurationText)
      : '',
    description: row.description ?? '',
  };
}

/** The editable columns, in the grid's order. */
export const EDIT_FIELDS = [
  'title',
  'price',
  'minimumOffer',
  'acceptsOffers',
  'acceptsTrades',
  'autoRelist',
  'status',
  'durationHours',
  'description',
] as const;
export type EditField = (typeof EDIT_FIELDS)[number];

export const FIELD_LABELS: Record<EditField | 'promoted', string> = {
  title: 'Title',
  price: 'Price',
  minimumOffer: 'Minimum offer',
  acceptsOffers: 'Offers',
  acceptsTrades: 'Trades',
  autoRelist: 'Auto-relist',
  status: 'Status',
  durationHours: 'Duration',
  description: 'Description',
  promoted: 'Promoted',
};

export const BOOLEAN_FIELDS = ['acceptsOffers', 'acceptsTrades', 'autoRelist'] as const;
export type BooleanField = (typeof BOOLEAN_FIELDS)[number];
export const isBooleanField = (field: EditField): field is BooleanField =>
  (BOOLEAN_FIELDS as readonly string[]).includes(field);

/**
 * One row of the form, every editable cell as the grid holds it (text, or a switch), with the
 * spec's bounds: its messages are shown on the cells before sending.
 */
const EditRowSchema = z
  .object({
    id: z.string().check(z.minLength(1)),
    title: titleText('is required', 'must be at most 180 characters'),
    price: priceText(),
    /** Empty: no minimum offer, or (when the API does not show it) leave it unchanged. */
    minimumOffer: minimumOfferText(),
    /** Null: leave unchanged (the API does not show the current value). */
    acceptsOffers: z.nullable(z.boolean()),
    acceptsTrades: z.nullable(z.boolean()),
    autoRelist: z.nullable(z.boolean()),
    status: z.enum(EDIT_STATUSES, { error: 'must be active, draft or inactive' }),
    /** Empty: leave unchanged (the API does not show the current window). */
    durationHours: z.union([
      z.enum(DURATIONS, { error: 'must be 168, 336, 504 or 720 hours' }),
      z.literal(''),
    ]),
    description: descriptionText('must be at most 1000 characters'),
    /** Only the CSV import sets it; one-way (see the diff). */
    promoted: z.optional(z.boolean()),
  })
  .check(
    z.superRefine((row, ctx) =>
      checkOfferWithinPrice(
        {
          price: row.price,
          minimumOffer: row.minimumOffer,
          offersOff: row.acceptsOffers === false,
        },
        ctx,
        { minimum_offer: 'minimumOffer', price: 'price' },
      ),
    ),
  );

export type EditValues = z.infer<typeof EditRowSchema>;

/** Every cell's first zod message, keyed `field`, for one row (empty when valid). */
export function rowErrors(values: EditValues): Partial<Record<EditField, string>> {
  const errors: Partial<Record<EditField, string>> = {};
  for (const issue of EditRowSchema.safeParse(values).error?.issues ?? []) {
    const field = issue.path[0] as EditField;
    if ((EDIT_FIELDS as readonly unknown[]).includes(field)) errors[field] ??= issue.message;
  }
  return errors;
}
