import { z } from 'zod';
import { FieldErrors } from '../platform/api-error';
import { flattenWriteBody } from '../../shared/write-body';
import { gradeProblem } from './grade-scales';
import { GRADERS } from './inventory';
import { DURATIONS } from './listings';
import { centsOf } from '../../shared/money';
import { MAX_PRICE_CENTS, MIN_PRICE_CENTS, priceBoundsMessage } from '../../shared/price-math';
import { parseIsoInstant } from '../platform/time';
import { LISTING_LIMITS, OFFER_ABOVE_PRICE, PRICE_BELOW_OFFER } from '../../client/listing-rules';
import { isLoopbackHttp } from '../platform/host-names';

/**
 * Listing write input rules: every broken rule under its field, together in one 422. Each field
 * is a zod schema, read on its own (a broken field never hides another); the same schemas are the
 * OpenAPI document's ListingCreateInput and ListingUpdateInput (openapi/schemas.ts).
 */

const IMAGE_EXTENSIONS = ['.jpg', '.jpeg', '.png', '.webp', '.heic'];

/** The earliest card year accepted: trading cards older than this are not on the marketplace. */
const MIN_CARD_YEAR = 1850;

const chars = (text: string) => [...text].length;

/** Control characters (NUL, escapes, DEL...); multi-line fields may hold tab and line breaks. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/u;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_MULTILINE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/u;

/** Text, trimmed; its length counted in characters, as JSON Schema's minLength and maxLength are. */
const text = (min: number, max: number, multiline = false) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
    .refine((value) => !(multiline ? CONTROL_MULTILINE : CONTROL).test(value), {
      error: 'must not contain control characters',
      abort: true,
    })
    .transform((value) => value.trim())
    .refine((value) => chars(value) >= min, {
      error: min === 1 ? "can't be blank" : `must be at least ${min} characters`,
      abort: true,
    })
    .refine((value) => chars(value) <= max, { error: `is too long (maximum is ${max} characters)` })
    .meta({ minLength: min, maxLength: max });

const flag = z.boolean({ error: 'must be true or false' });

/** A value read by one of the house's parsers; `problem` words what it refuses. */
const readBy = <T>(parse: (value: unknown) => T, problem: (read: T) => string | null) =>
  z.unknown().transform((value, ctx) => {
    const read = parse(value);
    const message = problem(read);
    if (message === null) return read as NonNullable<T>;
    ctx.addIssue({ code: 'custom', message });
    return z.NEVER;
  });

/** The one money parser (shared/money) into cents; a string or a number (JSON Schema's words). */
const dollars = (
  problem: (cents: number | undefined) => string | null,
  pattern: string,
  number: object,
) =>
  readBy(centsOf, problem).meta({
    anyOf: [
      { type: 'string', pattern },
      { type: 'number', ...number },
    ],
  });

const price = dollars(
  (cents) =>
    cents === undefined
      ? 'must be a dollar amount with at most 2 decimals, such as "125.00"'
      : priceBoundsMessage(BigInt(cents)) && 'must be between 10 and 1000000 dollars',
  '^\\$?\\d+(\\.\\d{1,2})?$',
  { minimum: Number(MIN_PRICE_CENTS) / 100, maximum: Number(MAX_PRICE_CENTS) / 100 },
);

/** `null` clears the floor (an update), or is ignored with offers off. */
const minimumOffer = dollars(
  (cents) =>
    cents === undefined || cents === 0
      ? 'must be a positive dollar amount with at most 2 decimals, or null'
      : null,
  '^\\d+(\\.\\d{1,2})?$',
  { minimum: 0 },
).nullable();

/** `null` releases a schedule now. */
const instant = readBy(parseIsoInstant, (ms) =>
  ms === null ? 'must be an ISO 8601 date-time with a zone, or null' : null,
)
  .meta({ type: 'string', format: 'date-time' })
  .nullable();

/** The image rule's format half: an https URL of a JPEG, PNG, WEBP or HEIC photo. */
export function imageFormatProblem(src: string, loopbackImages = false): string | null {
  let url: URL;
  try {
    url = new URL(src);
  } catch {
    return 'is not a URL';
  }
  if (url.protocol !== 'https:' && !(loopbackImages && isLoopbackHttp(url))) {
    return 'must be an https URL';
  }
  const path = url.pathname.toLowerCase();
  if (!IMAGE_EXTENSIONS.some((ext) => path.endsWith(ext))) {
    return 'must be a JPEG, PNG, WEBP or HEIC photo (.jpg, .jpeg, .png, .webp or .heic)';
  }
  return null;
}

/** The photos; each is read in `imageSources` (its message names it by its place). */
const images = z
  .array(z.unknown(), { error: 'must be an array of {src} objects' })
  .max(LISTING_LIMITS.images, { error: `at most ${LISTING_LIMITS.images} images are allowed` })
  .meta({
    items: {
      type: 'object',
      required: ['src'],
      properties: { src: { type: 'string', format: 'uri' } },
      additionalProperties: true,
    },
  });

function imageSources(errors: FieldErrors, list: unknown[], loopbackImages: boolean): string[] {
  const out: string[] = [];
  list.forEach((image: unknown, index) => {
    const src: unknown =
      typeof image === 'object' && image !== null ? Reflect.get(image, 'src') : undefined;
    if (typeof src !== 'string' || src.trim() === '') {
      return errors.add('images', `image ${index + 1} must be an object with a src URL`);
    }
    const problem = imageFormatProblem(src.trim(), loopbackImages);
    if (problem) errors.add('images', `image ${index + 1} (${src}) ${problem}`);
    else out.push(src.trim());
  });
  return out;
}

const yearWords = () =>
  `must be a year from ${MIN_CARD_YEAR} to ${new Date().getUTCFullYear() + 1}`;

/** The fallback card details, used only when the grader lookup cannot resolve the cert. */
const card = z.strictObject(
  {
    title: text(1, LISTING_LIMITS.card.title),
    player: text(0, LISTING_LIMITS.card.player).optional(),
    year: z
      .int({ error: 'must be an integer' })
      .min(MIN_CARD_YEAR, { error: yearWords })
      .refine((year) => year <= new Date().getUTCFullYear() + 1, { error: yearWords })
      .optional(),
    set: text(0, LISTING_LIMITS.card.set).optional(),
    variant: text(0, LISTING_LIMITS.card.variant).optional(),
    grade: text(0, LISTING_LIMITS.card.grade).optional(),
    category: text(0, LISTING_LIMITS.card.category).optional(),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys' ? 'is not a card field' : 'must be an object',
  },
);

/** The sale window and terms both writes take. */
const TERMS = {
  title: text(1, LISTING_LIMITS.title),
  description: text(0, LISTING_LIMITS.description, true),
  duration_hours: z.literal(DURATIONS, { error: `must be one of ${DURATIONS.join(', ')}` }),
  accepts_offers: flag,
  minimum_offer: minimumOffer,
  accepts_trades: flag,
  auto_relist: flag,
  promoted: flag,
  scheduled_go_live_at: instant,
};

/** A create's fields (all optional here: which are required is a rule of `parseCreate`). */
export const createFields = z
  .object({
    price,
    sku: text(1, 40),
    inventory_item_id: text(1, 64),
    grader: z.preprocess(
      (value) => (typeof value === 'string' ? value.trim().toUpperCase() : value),
      z.enum(GRADERS, { error: `must be one of ${GRADERS.join(', ')}` }),
    ),
    images,
    card,
    ...TERMS,
  })
  .partial();

/** An update's fields: only those to change. */
export const updateFields = z
  .object({
    price,
    status: z.enum(['active', 'draft'], { error: 'must be active or draft' }),
    ...TERMS,
  })
  .partial();

type Fields<S extends z.ZodType> = Partial<z.output<S>>;
export type CreateInput = Omit<
  Fields<typeof createFields>,
  'price' | 'minimum_offer' | 'images'
> & {
  price_cents: number;
  minimum_offer_cents?: number | null;
  /** The image URLs as given (the rehost step checks that each can be fetched). */
  images: string[];
};
export type UpdateInput = Omit<Fields<typeof updateFields>, 'price' | 'minimum_offer'> & {
  price_cents?: number;
  minimum_offer_cents?: number | null;
};

/** Reads each field sent on its own: its value, or its messages (nested ones as `card.year`). */
function readFields<S extends z.ZodObject>(
  schema: S,
  sent: Record<string, unknown>,
  errors: FieldErrors,
): Fields<S> {
  const read: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
    if (sent[name] === undefined) continue;
    const result = field.safeParse(sent[name]);
    if (result.success) {
      read[name] = result.data;
      continue;
    }
    for (const issue of result.error.issues) {
      const path = [name, ...issue.path.map(String)].join('.');
      if (issue.code !== 'unrecognized_keys') errors.add(path, issue.message);
      else for (const key of issue.keys) errors.add(`${path}.${key}`, issue.message);
    }
  }
  return read as Fields<S>;
}

/** Parses a create body; throws one 422 with every broken rule. */
export function parseCreate(
  body: unknown,
  options: { loopbackImages?: boolean } = {},
): CreateInput {
  const errors = new FieldErrors();
  const sent = flattenWriteBody(body, 'create', errors);
  const read = readFields(createFields, sent, errors);
  const { price: priceCents, minimum_offer: minimum, images: list, card: details, ...rest } = read;
  const input: CreateInput = { ...rest, price_cents: priceCents ?? 0, images: [] };
  if (sent.price === undefined) errors.add('price', 'is required');
  if (sent.sku === undefined && sent.inventory_item_id === undefined) {
    errors.add('sku', 'either sku (a cert number) or inventory_item_id is required');
  }
  if (sent.sku !== undefined && sent.inventory_item_id !== undefined) {
    errors.add('inventory_item_id', 'cannot be given together with sku: send one of them');
  }
  if (list) input.images = imageSources(errors, list, options.loopbackImages ?? false);
  if (sent.card !== undefined) {
    if (sent.inventory_item_id !== undefined) {
      errors.add('card', 'cannot be used with inventory_item_id (the card already exists)');
    } else {
      const gradeIssue =
        details?.grade === undefined ? null : gradeProblem(details.grade, read.grader);
      if (gradeIssue) errors.add('card.grade', gradeIssue);
      if (details) input.card = { ...details, grade: gradeIssue ? undefined : details.grade };
      if (sent.grader === undefined) errors.add('grader', 'is required when card is given');
      if (sent.images === undefined || (Array.isArray(sent.images) && sent.images.length === 0)) {
        errors.add('images', 'at least one image is required when card is given');
      }
    }
  }
  // Meaningful only with offers on: with offers off it is ignored, not checked against the price.
  if (minimum !== undefined && input.accepts_offers !== false) {
    if (minimum !== null && input.price_cents > 0 && minimum > input.price_cents) {
      errors.add('minimum_offer', OFFER_ABOVE_PRICE);
      errors.add('price', PRICE_BELOW_OFFER);
    } else input.minimum_offer_cents = minimum;
  }
  errors.throwIfAny();
  return input;
}

/** Parses an update body (only the fields to change); throws one 422 with every broken rule. */
export function parseUpdate(body: unknown): UpdateInput {
  const errors = new FieldErrors();
  const sent = flattenWriteBody(body, 'update', errors);
  if (sent.scheduled_go_live_at !== undefined && sent.status !== undefined) {
    errors.add('scheduled_go_live_at', 'cannot be given together with status');
    delete sent.scheduled_go_live_at;
  }
  const { price, minimum_offer, ...rest } = readFields(updateFields, sent, errors);
  errors.throwIfAny();
  return { ...rest, price_cents: price, minimum_offer_cents: minimum_offer };
}
