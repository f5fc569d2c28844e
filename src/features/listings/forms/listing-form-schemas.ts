import * as z from 'zod/mini';
import { DURATION_HOURS, GRADERS } from '../../../client';
import {
  LISTING_LIMITS,
  OFFER_FORM_WORDS,
  PRICE_FORM_WORDS,
  checkOfferWithinPrice,
  descriptionText,
  minimumOfferText,
  priceText,
  titleText,
} from '../../../client/listing-rules';

/** The listing forms' schemas: string and boolean values, each field held to the spec's bounds. */
/** The price: 10 to 1,000,000 dollars, at most 2 decimals (the listing rules, in sentences). */
export const priceField = priceText(PRICE_FORM_WORDS);

/** An optional dollar amount: empty means none. */
export const minimumOfferField = minimumOfferText(OFFER_FORM_WORDS);

const titleField = (required: string) => titleText(required, 'At most 180 characters');
const descriptionField = descriptionText('At most 1000 characters');

export const durationField = z
  .string()
  .check(
    z.refine(
      (value) => value === '' || (DURATION_HOURS as readonly number[]).includes(Number(value)),
      'Choose 7, 14, 21 or 30 days',
    ),
  );

/** A `datetime-local` value, or empty; when given it must be in the future. */
export const goLiveField = z.string().check(
  z.refine((value) => value === '' || !Number.isNaN(Date.parse(value)), 'Enter a date and time'),
  z.refine(
    (value) => value === '' || Date.parse(value) > Date.now(),
    'The go-live time must be in the future',
  ),
);

/** An on/off term: a checkbox when known, else a "set to" choice (`''` leaves it unchanged). */
export const setToField = z.union([z.boolean(), z.enum(['', 'yes', 'no'])]);
export type SetTo = z.infer<typeof setToField>;

export const EditListingForm = z.object({
  price: priceField,
  title: titleField('The title cannot be empty'),
  description: descriptionField,
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

/** A photo this server keeps; on plain http the form warns the marketplace may refuse it. */
export function isOwnPhoto(value: string): boolean {
  const origin = globalThis.location?.origin;
  return (
    origin !== undefined &&
    /^[A-Za-z0-9_-]{24}\.(jpg|png|webp)$/.test(
      value.startsWith(`${origin}/hub/photos/`) ? value.slice(origin.length + 12) : '',
    )
  );
}

const httpsImage = z.string().check(
  z.trim(),
  z.refine(
    (value) =>
      value === '' || /^https:\/\/[^\s/]+\.[^\s/]+\/\S+$/i.test(value) || isOwnPhoto(value),
    'Use a public https:// URL of the photo',
  ),
);

const { card: CARD } = LISTING_LIMITS;
const cardText = (max: number) =>
  z.string().check(z.trim(), z.maxLength(max, `At most ${max} characters`));
const trimmed = () => z.string().check(z.trim());

export const NewListingForm = z
  .object({
    source: z.enum(['sku', 'inventory_item_id']),
    sku: trimmed(),
    inventory_item_id: trimmed(),
    price: priceField,
    grader: z.union([z.enum(GRADERS), z.literal('')]),
    title: z.string().check(z.trim(), z.maxLength(LISTING_LIMITS.title, 'At most 180 characters')),
    description: descriptionField,
    images: z
      .array(z.object({ src: httpsImage }))
      .check(z.maxLength(LISTING_LIMITS.images, 'At most 5 photos')),
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
      title: cardText(CARD.title),
      player: cardText(CARD.player),
      year: z.string().check(
        z.trim(),
        z.refine(
          (v) => v === '' || (/^\d{4}$/.test(v) && Number(v) >= 1850 && Number(v) <= 2100),
          'A four-digit year',
        ),
      ),
      set: cardText(CARD.set),
      variant: cardText(CARD.variant),
      grade: cardText(CARD.grade),
      category: cardText(CARD.category),
    }),
  })
  .check(
    z.superRefine((form, ctx) => {
      // A create sends the price with the minimum offer: the rule names both.
      checkOfferWithinPrice(
        {
          price: form.price,
          minimumOffer: form.minimum_offer,
          offersOff: !form.accepts_offers,
          priceSent: true,
        },
        ctx,
        { minimum_offer: 'minimum_offer', price: 'price' },
      );
      const issue = (path: string[], message: string) =>
        ctx.addIssue({ code: 'custom', path, message });
      if (form.source === 'sku' && form.sku === '') issue(['sku'], 'Enter the cert number');
      if (form.source === 'sku' && form.sku !== '' && !/^[A-Za-z0-9-]{4,20}$/.test(form.sku)) {
        issue(['sku'], 'A cert number is 4 to 20 letters or digits');
      }
      if (form.source === 'inventory_item_id' && form.inventory_item_id === '') {
        issue(['inventory_item_id'], 'Choose a card');
      }
      if (form.use_card && form.source === 'sku') {
        if (form.card.title === '') issue(['card', 'title'], 'The card title is required');
        if (form.grader === '') issue(['grader'], 'Choose the grader when giving card details');
        if (!form.images.some((image) => image.src !== '')) {
          issue(['images'], 'Add at least one photo when giving card details');
        }
      }
    }),
  );
export type NewListingForm = z.infer<typeof NewListingForm>;
