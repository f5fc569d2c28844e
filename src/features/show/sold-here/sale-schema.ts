import * as z from 'zod/mini';
import type { TenderBody } from '../../../api/shows/show-api';
import { centsOf, formatCents, formatDollars } from '../../../shared/money';
import { TENDER_KINDS, type TenderKind } from '../../../shared/show-tenders';

/** An amount the ledger takes (at most 9,999,999.99), in cents; undefined when it is not one. */
export const saleCents = (text: string): number | undefined => centsOf(text, { max: 999_999_999 });

const amount = z.string().check(
  z.trim(),
  z.superRefine((value, context) => {
    const cents = saleCents(value);
    if (cents === undefined) {
      context.addIssue({ code: 'custom', message: 'Enter an amount like 120 or 120.50' });
    } else if (cents === 0) context.addIssue({ code: 'custom', message: 'Enter more than zero' });
  }),
);

/** The amount field of each way to pay (a trade's is its agreed value). */
export const AMOUNT_FIELD = {
  cash: 'cashAmount',
  card: 'cardAmount',
  other: 'otherAmount',
  trade: 'tradeValue',
} as const satisfies Record<TenderKind, string>;

/** The "Sold here" form: show, price, and one tender or a split adding up to the price. */
export const saleSchema = z
  .object({
    showKey: z.string().check(z.minLength(1, 'Choose the show, or start one')),
    price: amount,
    discount: z.string().check(z.trim()),
    tenders: z.array(z.enum(TENDER_KINDS)),
    cashAmount: z.string().check(z.trim()),
    cardAmount: z.string().check(z.trim()),
    otherAmount: z.string().check(z.trim()),
    otherNote: z.string().check(z.trim(), z.maxLength(80, 'At most 80 characters')),
    tradeTitle: z.string().check(z.trim(), z.maxLength(300, 'At most 300 characters')),
    tradeCert: z
      .string()
      .check(z.trim(), z.regex(/^\d{0,10}$/, 'A cert number is up to 10 digits')),
    tradeValue: z.string().check(z.trim()),
  })
  .check(
    z.superRefine((form, context) => {
      const issue = (path: string, message: string) =>
        context.addIssue({ code: 'custom', path: [path], message });
      if (form.tenders.length === 0) {
        issue('tenders', 'Choose how the buyer paid');
        return;
      }
      if (form.tenders.includes('other') && form.otherNote === '') {
        issue('otherNote', 'Say how it was paid: Venmo, PayPal…');
      }
      if (form.tenders.includes('trade') && form.tradeTitle === '') {
        issue('tradeTitle', 'Name the card taken in trade');
      }
      let amountsRead = true;
      for (const kind of form.tenders) {
        if (!typedAmount(form.tenders, kind)) continue;
        const field = AMOUNT_FIELD[kind];
        const checked = amount.safeParse(form[field]);
        if (!checked.success) {
          amountsRead = false;
          issue(field, checked.error.issues[0]?.message ?? 'Enter the amount');
        }
      }
      if (!amountsRead || saleCents(form.price) === undefined) return;
      const left = centsLeft(form);
      if (left !== 0) {
        issue(
          'tenders',
          left > 0
            ? `${formatDollars(left)} left to take: the amounts must add up to the price`
            : `${formatDollars(-left)} too much: the amounts must add up to the price`,
        );
      }
    }),
  );

export type SaleValues = z.infer<typeof saleSchema>;

/** The seller types a trade's agreed value and each amount of a split; one payment is the price. */
export const typedAmount = (tenders: readonly TenderKind[], kind: TenderKind): boolean =>
  kind === 'trade' || tenders.length > 1;

/** What a tender takes, in cents (the price for a single one; 0 for an amount not readable yet). */
function amountCents(form: SaleValues, kind: TenderKind): number {
  const text = typedAmount(form.tenders, kind) ? form[AMOUNT_FIELD[kind]] : form.price;
  return saleCents(text) ?? 0;
}

/** The price less what the chosen tenders take so far (negative: more than the price). */
export function centsLeft(form: SaleValues): number {
  const price = saleCents(form.price) ?? 0;
  return form.tenders.reduce((left, kind) => left - amountCents(form, kind), price);
}

/** "120" as "120.00": the ledger reads amounts with two decimals. */
export const twoDecimals = (value: string): string => formatCents(saleCents(value) ?? 0);

/** The checked form's tenders, in the order the ways to pay are offered, as the ledger takes them. */
export function tenderBodies(form: SaleValues): TenderBody[] {
  return TENDER_KINDS.filter((kind) => form.tenders.includes(kind)).map((kind): TenderBody => {
    const amount = formatCents(amountCents(form, kind));
    if (kind === 'other') return { kind, amount, note: form.otherNote };
    if (kind === 'trade') {
      return {
        kind,
        amount,
        title: form.tradeTitle,
        certNumber: form.tradeCert || null,
        grader: null,
      };
    }
    return { kind, amount };
  });
}

/** The discount off the asking price in cents, or 0 (sold at or above it). */
export function discountCents(asking: string | null | undefined, price: string): number {
  const sold = saleCents(price);
  if (!asking || sold === undefined) return 0;
  return Math.max(0, (centsOf(asking) ?? 0) - sold);
}
