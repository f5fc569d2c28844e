/** The spec's listing field rules, for schemas, forms, grid and CSV; money in bigint cents. */
import * as z from 'zod/mini';
import { readCents, type CentsProblem } from '../shared/money';
import {
  MAX_PRICE_CENTS,
  MIN_PRICE_CENTS,
  PRICE_BOUND_WORDS,
  priceBoundsMessage,
  type Parsed,
} from '../shared/price-math';

// The price bounds live with the price arithmetic, which the server uses too.
export { MAX_PRICE_CENTS, MIN_PRICE_CENTS, priceBoundsMessage, type Parsed };

/** The spec's bounds on the listing's text fields and photos. */
export const LISTING_LIMITS = {
  title: 180,
  description: 1000,
  images: 5,
  card: { title: 180, player: 120, set: 120, variant: 120, grade: 20, category: 40 },
} as const;

/** Why a text is not a usable amount. */
export type AmountProblem = CentsProblem | 'below' | 'zero';

type Read = { ok: true; cents: bigint } | { ok: false; problem: AmountProblem };

/** Reads an amount as typed (`125`, `$1,250.00`); extra decimals or text refused, not rounded. */
function readAmount(text: string): Read {
  const read = readCents(text, { typed: true });
  return read.ok ? { ok: true, cents: BigInt(read.cents) } : read;
}

function readPrice(text: string): Read {
  const read = readAmount(text);
  if (!read.ok) return read;
  if (read.cents < MIN_PRICE_CENTS) return { ok: false, problem: 'below' };
  if (read.cents > MAX_PRICE_CENTS) return { ok: false, problem: 'above' };
  return read;
}

function readMinimumOffer(text: string): Read {
  const read = readAmount(text);
  if (read.ok && read.cents === 0n) return { ok: false, problem: 'zero' };
  return read;
}

/** The words of each problem, after a column's name. */
export const CELL_WORDS: Record<AmountProblem, string> = {
  empty: 'enter an amount',
  malformed: 'must be an amount like 125.00',
  decimals: 'must have at most 2 decimals',
  ...PRICE_BOUND_WORDS,
  zero: 'must be more than 0.00',
};

/** The words under a form's price field. */
export const PRICE_FORM_WORDS: Record<AmountProblem, string> = {
  empty: 'Enter a price',
  malformed: 'Use dollars with at most 2 decimals, like 125.00',
  decimals: 'Use dollars with at most 2 decimals, like 125.00',
  below: 'The price must be from $10 to $1,000,000',
  above: 'The price must be from $10 to $1,000,000',
  zero: 'The price must be from $10 to $1,000,000',
};

/** The words under a form's minimum-offer field (empty means none there). */
export const OFFER_FORM_WORDS: Record<AmountProblem, string> = {
  ...PRICE_FORM_WORDS,
  malformed: 'Use dollars with at most 2 decimals, or leave empty',
  decimals: 'Use dollars with at most 2 decimals, or leave empty',
  zero: 'The minimum offer must be more than $0',
};

/** The minimum offer above the price (the spec's input rule; the same words as the API's). */
export const OFFER_ABOVE_PRICE = 'must be at most the price';
/** The other half of that rule, on the price, when both were sent together. */
export const PRICE_BELOW_OFFER = 'must be at least the minimum offer sent with it';

const parsed = (read: Read, words: Record<AmountProblem, string>): Parsed<bigint> =>
  read.ok ? { ok: true, value: read.cents } : { ok: false, message: words[read.problem] };

/** An amount in cents, or the cell words of why it is not one. */
export const parseAmount = (text: string): Parsed<bigint> => parsed(readAmount(text), CELL_WORDS);

/** A price in cents within the spec's bounds, or the cell words of why it is not one. */
export const parsePrice = (text: string): Parsed<bigint> => parsed(readPrice(text), CELL_WORDS);

/** An amount as the API takes it: the seller's digits without a `$` or thousands commas. */
export const toApiAmount = (text: string): string =>
  text
    .trim()
    .replace(/^\$\s*/, '')
    .replace(/,/g, '');

/** Whether a minimum offer is above the price, exactly; false when either is not an amount. */
export function offerAbovePrice(price: string, offer: string): boolean {
  if (offer.trim() === '') return false;
  const p = readPrice(price);
  const o = readAmount(offer);
  return p.ok && o.ok && o.cents > p.cents;
}

// ---------------------------------------------------------------------------------------------
// zod fields (text, as forms and cells hold it)

/** A zod check of an amount as `read` takes it, each problem in `words`. */
const amountCheck = <T>(read: (value: T) => Read, words: Record<AmountProblem, string>) =>
  z.superRefine<T>((value, ctx) => {
    const result = read(value);
    if (!result.ok) ctx.addIssue({ code: 'custom', message: words[result.problem] });
  });

/** A price as text: 10 to 1,000,000 dollars, at most 2 decimals. */
export const priceText = (words: Record<AmountProblem, string> = CELL_WORDS) =>
  z.string().check(amountCheck(readPrice, words));

/** A minimum offer as text: empty means none; otherwise an amount above 0. */
const readOfferText = (text: string): Read =>
  text.trim() === '' ? { ok: true, cents: 0n } : readMinimumOffer(text);
export const minimumOfferText = (words: Record<AmountProblem, string> = CELL_WORDS) =>
  z.string().check(amountCheck(readOfferText, words));

/** A title: required, at most 180 characters. */
export const titleText = (required: string, tooLong: string) =>
  z.string().check(z.trim(), z.minLength(1, required), z.maxLength(LISTING_LIMITS.title, tooLong));

/** A description: at most 1000 characters. */
export const descriptionText = (tooLong: string) =>
  z.string().check(z.maxLength(LISTING_LIMITS.description, tooLong));

/** "A minimum offer at most the price" as the API applies it; empty while offers are off. */
export function offerWithinPriceIssues(terms: {
  price: string;
  minimumOffer: string;
  offersOff?: boolean;
  priceSent?: boolean;
}): { field: 'minimum_offer' | 'price'; message: string }[] {
  if (terms.offersOff || !offerAbovePrice(terms.price, terms.minimumOffer)) return [];
  return [
    { field: 'minimum_offer', message: OFFER_ABOVE_PRICE },
    ...(terms.priceSent ? [{ field: 'price' as const, message: PRICE_BELOW_OFFER }] : []),
  ];
}

/** Adds the rule's issues to a form or row schema, under the names it uses for the two fields. */
export function checkOfferWithinPrice(
  terms: Parameters<typeof offerWithinPriceIssues>[0],
  ctx: Pick<z.core.$RefinementCtx, 'addIssue'>,
  names: { minimum_offer: string; price: string },
): void {
  for (const issue of offerWithinPriceIssues(terms)) {
    ctx.addIssue({ code: 'custom', path: [names[issue.field]], message: issue.message });
  }
}

/** An amount as the API takes it, a string or a number (the client's write bodies). */
const apiAmount = (read: (text: string) => Read) =>
  z.union([z.string(), z.number()]).check(amountCheck((value) => read(String(value)), CELL_WORDS));

/** A price as the API takes it. */
export const PriceInput = apiAmount(readPrice);

/** A minimum offer as the API takes it (null clears it, on updates). */
export const MinimumOfferInput = apiAmount(readMinimumOffer);
