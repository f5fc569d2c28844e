import type { Order } from '../../client';
import type { SlabFacts } from '../../api/listings/slab-facts';

/** The words of a search, lower-cased: every one must match somewhere ("trout 10" finds both). */
export const searchWords = (q: string): string[] =>
  q.trim().toLowerCase().split(/\s+/).filter(Boolean);

/** What a search looks in: the order code, the line's title and cert, the kept card's facts. */
function haystack(order: Order, slab: SlabFacts | undefined): string {
  const line = order.line_items?.[0];
  return [
    order.name,
    order.svc_order_code,
    line?.title,
    line?.sku,
    slab?.title,
    slab?.player,
    slab?.cert,
    slab?.grader,
    slab?.grade,
    slab?.set,
    slab?.year,
  ]
    .filter((part) => part !== undefined && part !== null)
    .join(' ')
    .toLowerCase();
}

export function matchesSearch(order: Order, slab: SlabFacts | undefined, words: string[]) {
  if (words.length === 0) return true;
  const text = haystack(order, slab);
  return words.every((word) => text.includes(word));
}
