import * as z from 'zod/mini';

/** The "Sold here" form: the show, the price, and cash or a card taken in trade. */

const amount = z.string().check(
  z.trim(),
  z.regex(/^\d{1,7}(\.\d{1,2})?$/, 'Enter an amount like 120 or 120.50'),
  z.refine((value) => Number(value) > 0, 'Enter more than zero'),
);

export const saleSchema = z
  .object({
    showKey: z.string().check(z.minLength(1, 'Choose the show, or start one')),
    price: amount,
    payment: z.enum(['cash', 'trade']),
    tradeTitle: z.string().check(z.trim(), z.maxLength(300, 'At most 300 characters')),
    tradeCert: z
      .string()
      .check(z.trim(), z.regex(/^\d{0,10}$/, 'A cert number is up to 10 digits')),
    tradeValue: z.string().check(z.trim()),
  })
  .check(
    z.superRefine((form, context) => {
      if (form.payment !== 'trade') return;
      if (form.tradeTitle === '') {
        context.addIssue({
          code: 'custom',
          path: ['tradeTitle'],
          message: 'Name the card taken in trade',
        });
      }
      const value = amount.safeParse(form.tradeValue);
      if (!value.success) {
        context.addIssue({
          code: 'custom',
          path: ['tradeValue'],
          message: value.error.issues[0]?.message ?? 'Enter its agreed value',
        });
      } else if (Number(form.tradeValue) > Number(form.price)) {
        context.addIssue({
          code: 'custom',
          path: ['tradeValue'],
          message: 'The traded card is worth more than the price: raise the price',
        });
      }
    }),
  );

export type SaleValues = z.infer<typeof saleSchema>;

/** "120" as "120.00": the ledger reads amounts with two decimals. */
export const twoDecimals = (value: string): string => Number(value).toFixed(2);
