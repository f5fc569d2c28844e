import type { z } from 'zod';
import type { Store } from '../store';
import type { SellerRow } from '../store/rows';
import { MarketError as ControlError } from '../domain/marketplace';

/** A control API failure, `{error: message}` with 400, 404 or 409: a refused marketplace action. */
export { ControlError };

/** A control body read by `schema`, or a 400 naming each broken field. */
export function parseControl<T>(schema: z.ZodType<T>, body: unknown): T {
  const result = schema.safeParse(body ?? {});
  if (result.success) return result.data;
  const issues = result.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`);
  throw new ControlError(400, issues.join('; '));
}

/** The seller named by a control call, or a 404 (a deleted one too). */
export function requireSeller(store: Store, id: string): SellerRow {
  const seller = store.accounts.seller(id);
  if (!seller || seller.deleted) throw new ControlError(404, `seller ${id} not found`);
  return seller;
}
