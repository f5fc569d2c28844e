import type { Store } from '../store';
import type { InventoryItemRow, ItemHold, Scope } from '../store/rows';
import type { IdSource } from './ids';
import { refreshLevels } from './levels';

export interface NewCard {
  cert_number: string;
  grader: string;
  grade?: string | undefined;
  title?: string | undefined;
  player?: string | null | undefined;
  year?: number | null | undefined;
  set?: string | null | undefined;
  variant?: string | null | undefined;
  category?: string | null | undefined;
  cost_cents?: number | undefined;
  hold?: ItemHold | null | undefined;
}

export const GRADERS = ['PSA', 'BGS', 'SGC', 'CGC'] as const;
export type Grader = (typeof GRADERS)[number];

export const CATEGORIES = [
  'baseball',
  'basketball',
  'football',
  'hockey',
  'soccer',
  'pokemon',
  'magic',
  'yugioh',
  'non_sport',
] as const;

/** Unrecognised categories become non-sport, as the spec says. */
export function normalizeCategory(value: string | null | undefined): string {
  const v = (value ?? '').trim().toLowerCase();
  return (CATEGORIES as readonly string[]).includes(v) ? v : 'non_sport';
}

/** Adds a card to a seller's inventory (unlisted) and records its availability. */
export function createInventoryItem(
  store: Store,
  ids: IdSource,
  now: number,
  scope: Scope,
  card: NewCard,
): InventoryItemRow {
  const row = store.catalog.createItem({
    id: ids.id('itm'),
    seller_id: scope.sellerId,
    test: scope.test ? 1 : 0,
    cert_number: card.cert_number,
    grader: card.grader,
    grade: card.grade ?? '10',
    title: card.title ?? `${card.grader} ${card.cert_number}`,
    player: card.player ?? null,
    year: card.year ?? null,
    card_set: card.set ?? 'Unknown',
    variant: card.variant ?? 'Base',
    category: normalizeCategory(card.category),
    cost_cents: card.cost_cents ?? 0,
    hold: card.hold ?? null,
    created_at: now,
    updated_at: now,
  });
  refreshLevels(store, [row.id], now);
  return row;
}
