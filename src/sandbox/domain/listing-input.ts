import { FieldErrors } from '../platform/api-error';
import { flattenWriteBody } from '../../shared/write-body';
import { gradeProblem } from './grade-scales';
import { GRADERS, type Grader } from './inventory';
import { DURATIONS } from './listings';
import { centsOf } from '../../shared/money';
import { parseIsoInstant } from '../platform/time';
import { isLoopbackHttp } from '../platform/host-names';

/** The price's side of a minimum offer above it, when both were sent in one request. */
export const PRICE_BELOW_MINIMUM = 'must be at least the minimum offer sent with it';

/** Listing write input rules: every broken rule under its field, together in one 422. */

export const MIN_PRICE_CENTS = 10_00;
export const MAX_PRICE_CENTS = 1_000_000_00;
export const MAX_IMAGES = 5;
const IMAGE_EXTENSIONS = ['.jpg', '.jpeg', '.png', '.webp', '.heic'];

/** The terms both writes take; `null` clears the minimum offer, or releases a schedule now. */
interface Terms {
  title?: string | undefined;
  description?: string | undefined;
  duration_hours?: number | undefined;
  accepts_offers?: boolean | undefined;
  minimum_offer_cents?: number | null | undefined;
  accepts_trades?: boolean | undefined;
  auto_relist?: boolean | undefined;
  promoted?: boolean | undefined;
  scheduled_go_live_at?: number | null | undefined;
}

export interface CreateInput extends Terms {
  price_cents: number;
  sku?: string | undefined;
  inventory_item_id?: string | undefined;
  grader?: Grader | undefined;
  /** The image URLs as given (the rehost step checks that each can be fetched). */
  images: string[];
  card?: ReturnType<typeof card>;
}

export interface UpdateInput extends Terms {
  price_cents?: number | undefined;
  status?: 'active' | 'draft' | undefined;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const chars = (text: string) => [...text].length;

/** Control characters (NUL, escapes, DEL...); multi-line fields may hold tab and line breaks. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/u;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_MULTILINE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/u;

/** The earliest card year accepted: trading cards older than this are not on the marketplace. */
export const MIN_CARD_YEAR = 1850;

/** Field readers: each returns the value, or undefined after adding a message. */
function text(
  errors: FieldErrors,
  field: string,
  value: unknown,
  min: number,
  max: number,
  multiline = false,
): string | undefined {
  if (typeof value !== 'string') return errors.add(field, 'must be a string');
  if ((multiline ? CONTROL_MULTILINE : CONTROL).test(value))
    return errors.add(field, 'must not contain control characters');
  const trimmed = value.trim();
  const short = min === 1 ? "can't be blank" : `must be at least ${min} characters`;
  if (chars(trimmed) < min) return errors.add(field, short);
  if (chars(trimmed) > max) return errors.add(field, `is too long (maximum is ${max} characters)`);
  return trimmed;
}

function flag(errors: FieldErrors, field: string, value: unknown): boolean | undefined {
  if (typeof value !== 'boolean') return errors.add(field, 'must be true or false');
  return value;
}

function price(errors: FieldErrors, value: unknown): number | undefined {
  const cents = centsOf(value);
  if (cents === undefined)
    return errors.add('price', 'must be a dollar amount with at most 2 decimals, such as "125.00"');
  if (cents < MIN_PRICE_CENTS || cents > MAX_PRICE_CENTS)
    return errors.add('price', 'must be between 10 and 1000000 dollars');
  return cents;
}

function minimumOffer(errors: FieldErrors, value: unknown): number | null | undefined {
  if (value === null) return null;
  const cents = centsOf(value);
  if (cents !== undefined && cents !== 0) return cents;
  return errors.add(
    'minimum_offer',
    'must be a positive dollar amount with at most 2 decimals, or null',
  );
}

function duration(errors: FieldErrors, value: unknown): number | undefined {
  if (typeof value === 'number' && (DURATIONS as readonly number[]).includes(value)) return value;
  return errors.add('duration_hours', `must be one of ${DURATIONS.join(', ')}`);
}

function instant(errors: FieldErrors, value: unknown): number | null | undefined {
  if (value === null) return null;
  const ms = parseIsoInstant(value);
  if (ms === null)
    return errors.add('scheduled_go_live_at', 'must be an ISO 8601 date-time with a zone, or null');
  return ms;
}

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

function images(errors: FieldErrors, value: unknown, loopbackImages: boolean): string[] {
  if (!Array.isArray(value)) return errors.add('images', 'must be an array of {src} objects') ?? [];
  if (value.length > MAX_IMAGES) {
    return errors.add('images', `at most ${MAX_IMAGES} images are allowed`) ?? [];
  }
  const out: string[] = [];
  value.forEach((image: unknown, index) => {
    const src = isObject(image) ? image.src : undefined;
    if (typeof src !== 'string' || src.trim() === '') {
      return errors.add('images', `image ${index + 1} must be an object with a src URL`);
    }
    const problem = imageFormatProblem(src.trim(), loopbackImages);
    if (problem) errors.add('images', `image ${index + 1} (${src}) ${problem}`);
    else out.push(src.trim());
  });
  return out;
}

/** The fallback card details, used only when the grader lookup cannot resolve the cert. */
function card(errors: FieldErrors, value: unknown, grader: Grader | undefined) {
  if (!isObject(value)) return errors.add('card', 'must be an object');
  const known = new Set(['title', 'player', 'year', 'set', 'variant', 'grade', 'category']);
  for (const key of Object.keys(value)) {
    if (!known.has(key)) errors.add(`card.${key}`, 'is not a card field');
  }
  const title =
    value.title === undefined
      ? errors.add('card.title', 'is required')
      : text(errors, 'card.title', value.title, 1, 180);
  const optional = (name: string, max: number) =>
    value[name] === undefined ? undefined : text(errors, `card.${name}`, value[name], 0, max);
  let year: number | undefined;
  if (value.year !== undefined) {
    const latest = new Date().getUTCFullYear() + 1;
    if (typeof value.year !== 'number' || !Number.isInteger(value.year)) {
      errors.add('card.year', 'must be an integer');
    } else if (value.year < MIN_CARD_YEAR || value.year > latest) {
      errors.add('card.year', `must be a year from ${MIN_CARD_YEAR} to ${latest}`);
    } else year = value.year;
  }
  const grade = optional('grade', 20);
  const gradeIssue = grade === undefined ? null : gradeProblem(grade, grader);
  if (gradeIssue) errors.add('card.grade', gradeIssue);
  const result = {
    player: optional('player', 120),
    year,
    set: optional('set', 120),
    variant: optional('variant', 120),
    grade: gradeIssue ? undefined : grade,
    category: optional('category', 40),
  };
  return title === undefined ? undefined : { title, ...result };
}

/** Title and description, as both writes read them. */
function readWords(errors: FieldErrors, f: Record<string, unknown>, input: Terms): void {
  if (f.title !== undefined) input.title = text(errors, 'title', f.title, 1, 180);
  if (f.description !== undefined)
    input.description = text(errors, 'description', f.description, 0, 1000, true);
}

/** The window's length and the flags, as both writes read them. */
function readWindow(errors: FieldErrors, f: Record<string, unknown>, input: Terms): void {
  if (f.duration_hours !== undefined) input.duration_hours = duration(errors, f.duration_hours);
  for (const name of ['accepts_offers', 'accepts_trades', 'auto_relist', 'promoted'] as const) {
    if (f[name] !== undefined) input[name] = flag(errors, name, f[name]);
  }
}

/** Parses a create body; throws one 422 with every broken rule. */
export function parseCreate(
  body: unknown,
  options: { loopbackImages?: boolean } = {},
): CreateInput {
  const errors = new FieldErrors();
  const f = flattenWriteBody(body, 'create', errors);
  const input: CreateInput = { price_cents: 0, images: [] };
  if (f.price === undefined) errors.add('price', 'is required');
  else input.price_cents = price(errors, f.price) ?? 0;
  if (f.sku !== undefined) input.sku = text(errors, 'sku', f.sku, 1, 40);
  if (f.inventory_item_id !== undefined)
    input.inventory_item_id = text(errors, 'inventory_item_id', f.inventory_item_id, 1, 64);
  if (f.sku === undefined && f.inventory_item_id === undefined) {
    errors.add('sku', 'either sku (a cert number) or inventory_item_id is required');
  }
  if (f.sku !== undefined && f.inventory_item_id !== undefined) {
    errors.add('inventory_item_id', 'cannot be given together with sku: send one of them');
  }
  if (f.grader !== undefined) {
    const grader = typeof f.grader === 'string' ? f.grader.trim().toUpperCase() : '';
    if ((GRADERS as readonly string[]).includes(grader)) input.grader = grader as Grader;
    else errors.add('grader', `must be one of ${GRADERS.join(', ')}`);
  }
  readWords(errors, f, input);
  if (f.images !== undefined) {
    input.images = images(errors, f.images, options.loopbackImages ?? false);
  }
  if (f.card !== undefined) {
    if (f.inventory_item_id !== undefined) {
      errors.add('card', 'cannot be used with inventory_item_id (the card already exists)');
    } else {
      input.card = card(errors, f.card, input.grader);
      if (f.grader === undefined) errors.add('grader', 'is required when card is given');
      if (f.images === undefined || (Array.isArray(f.images) && f.images.length === 0)) {
        errors.add('images', 'at least one image is required when card is given');
      }
    }
  }
  readWindow(errors, f, input);
  if (f.minimum_offer !== undefined) {
    const cents = minimumOffer(errors, f.minimum_offer);
    // Meaningful only with offers on: with offers off it is ignored, not checked against the price.
    if (cents !== undefined && input.accepts_offers !== false) {
      if (cents !== null && input.price_cents > 0 && cents > input.price_cents) {
        errors.add('minimum_offer', 'must be at most the price');
        errors.add('price', PRICE_BELOW_MINIMUM);
      } else input.minimum_offer_cents = cents;
    }
  }
  if (f.scheduled_go_live_at !== undefined)
    input.scheduled_go_live_at = instant(errors, f.scheduled_go_live_at);
  errors.throwIfAny();
  return input;
}

/** Parses an update body (only the fields to change); throws one 422 with every broken rule. */
export function parseUpdate(body: unknown): UpdateInput {
  const errors = new FieldErrors();
  const f = flattenWriteBody(body, 'update', errors);
  const input: UpdateInput = {};
  if (f.price !== undefined) input.price_cents = price(errors, f.price);
  readWords(errors, f, input);
  if (f.status !== undefined) {
    if (f.status === 'active' || f.status === 'draft') input.status = f.status;
    else errors.add('status', 'must be active or draft');
  }
  readWindow(errors, f, input);
  if (f.minimum_offer !== undefined)
    input.minimum_offer_cents = minimumOffer(errors, f.minimum_offer);
  if (f.scheduled_go_live_at !== undefined) {
    if (f.status !== undefined) {
      errors.add('scheduled_go_live_at', 'cannot be given together with status');
    } else input.scheduled_go_live_at = instant(errors, f.scheduled_go_live_at);
  }
  errors.throwIfAny();
  return input;
}
