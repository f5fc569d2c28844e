import { ApiError, FieldErrors, validationError } from '../platform/api-error';
import type { CertRow, InventoryItemRow, ListingWithCardRow } from '../store/rows';
import { emitProductEvent } from './events';
import type { IdSource } from './ids';
import { GRADERS, createInventoryItem, type Grader, type NewCard } from './inventory';
import type { CreateInput } from './listing-input';
import { isLoopbackHttp } from '../platform/host-names';
import {
  assertCardListable,
  assertNotBlocklisted,
  assertUnderCap,
  type WriteContext,
} from './listing-rules';
import { insertListing, type ListingStart } from './listings';

/** Graders whose data is verified: their listings go live at once. The others go to review. */
export const VERIFIED: readonly string[] = ['PSA', 'BGS'];

export const delay = (ms: number) =>
  ms > 0 ? new Promise<void>((resolve) => setTimeout(resolve, ms)) : Promise.resolve();

type Lookup =
  | { kind: 'found'; cert: CertRow }
  | { kind: 'not_found'; tried: readonly Grader[] }
  | { kind: 'unavailable' };

/** The grader lookup: the given grader, or PSA, BGS, SGC and CGC in that order. */
export async function lookupCert(
  ctx: WriteContext,
  certNumber: string,
  grader: Grader | undefined,
): Promise<Lookup> {
  await delay(ctx.faults.get().write_latency_ms);
  if (ctx.faults.get().cert_lookup === 'unavailable') return { kind: 'unavailable' };
  const tried = grader ? [grader] : GRADERS;
  for (const g of tried) {
    const cert = ctx.store.catalog.cert(g, certNumber);
    if (cert) return { kind: 'found', cert };
  }
  return { kind: 'not_found', tried };
}

/** Rehosts every image first: `.invalid` hosts fail, loopback (if allowed) is downloaded. */
export async function rehostImages(ctx: WriteContext, srcs: readonly string[]): Promise<string[]> {
  if (srcs.length === 0) return [];
  await delay(ctx.faults.get().write_latency_ms);
  const errors = new FieldErrors();
  await Promise.all(
    srcs.map(async (src, index) => {
      const url = new URL(src);
      const host = url.hostname.toLowerCase();
      if (host === 'invalid' || host.endsWith('.invalid')) {
        errors.add(
          'images',
          `image ${index + 1} (${src}) could not be downloaded: host unreachable`,
        );
        return;
      }
      if (ctx.loopbackImages && isLoopbackHttp(url)) {
        const problem = await downloadProblem(url);
        if (problem)
          errors.add('images', `image ${index + 1} (${src}) could not be downloaded: ${problem}`);
      }
    }),
  );
  errors.throwIfAny();
  return [...srcs];
}

/** The spec's limit on a listing photo. */
const MAX_IMAGE_BYTES = 15 * 1024 * 1024;

/** Why a photo on this machine cannot be rehosted (not answered, not a photo, too large), or null. */
async function downloadProblem(url: URL): Promise<string | null> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(10_000), redirect: 'error' });
    if (!response.ok) return `answered ${response.status}`;
    const type = response.headers.get('content-type') ?? '';
    if (!/^image\/(jpeg|png|webp|heic)\b/i.test(type)) return 'not a photo';
    const bytes = await response.arrayBuffer();
    return bytes.byteLength > MAX_IMAGE_BYTES ? 'larger than 15MB' : null;
  } catch {
    return 'host unreachable';
  }
}

/** Everything the asynchronous steps resolved; the commit is then one synchronous transaction. */
export interface ResolvedCreate {
  /** An existing card to list, or the details of a card to create. */
  item: { existing: InventoryItemRow } | { create: NewCard };
  defaultTitle: string;
  start: ListingStart;
  images: string[];
}

function startFor(input: CreateInput, now: number, verified: boolean): ListingStart {
  // Review wins over a schedule: the spec lists no refusal for the pair, and the review (not the
  // seller's time) decides when such a listing goes live, so the time is not kept.
  if (!verified) return { kind: 'pending_review' };
  const at = input.scheduled_go_live_at;
  const scheduled = at !== undefined && at !== null && at > now;
  return scheduled ? { kind: 'scheduled', goLiveAt: at } : { kind: 'live' };
}

/** The asynchronous half of a create: the card (existing, looked up, or fallback) and images. */
export async function resolveCreate(
  ctx: WriteContext,
  input: CreateInput,
): Promise<ResolvedCreate> {
  const { store, scope } = ctx;
  if (input.inventory_item_id !== undefined) {
    const item = store.catalog.item(input.inventory_item_id, scope);
    if (!item) {
      throw validationError({ inventory_item_id: ['is not an inventory item of this seller'] });
    }
    assertNotBlocklisted(ctx, item.cert_number);
    assertCardListable(store, item);
    // Images are meaningful only with sku: with an existing card they are ignored.
    return {
      item: { existing: item },
      defaultTitle: item.title,
      start: startFor(input, ctx.now, true),
      images: [],
    };
  }
  const sku = input.sku!;
  assertNotBlocklisted(ctx, sku);
  const lookup = await lookupCert(ctx, sku, input.grader);
  let resolved: Omit<ResolvedCreate, 'images'>;
  if (lookup.kind === 'found') {
    const { cert } = lookup;
    const held = store.catalog.itemByCert(sku, scope);
    const existing = held?.grader === cert.grader ? held : undefined;
    if (existing) assertCardListable(store, existing);
    resolved = {
      // The seller's card of this slab, else the registered cert's (`card_set` is a card's `set`).
      item: existing ? { existing } : { create: { ...cert, set: cert.card_set } },
      defaultTitle: cert.title,
      start: startFor(input, ctx.now, VERIFIED.includes(cert.grader)),
    };
  } else if (input.card) {
    // The fallback details, used only because the lookup could not resolve the cert.
    const card = input.card;
    resolved = {
      item: {
        create: {
          ...card,
          cert_number: sku,
          grader: input.grader!,
          grade: card.grade ?? 'Unknown',
          set: card.set || 'Unknown',
          variant: card.variant || 'Base',
        },
      },
      defaultTitle: card.title,
      start: startFor(input, ctx.now, false),
    };
  } else if (lookup.kind === 'unavailable') {
    throw new ApiError(
      503,
      'cert_lookup_unavailable',
      'The grader lookup is unavailable; nothing was created. Retry after Retry-After seconds with the same Idempotency-Key',
      { retryAfter: 5 },
    );
  } else {
    throw new ApiError(
      422,
      'cert_not_found',
      `No grader recognises cert ${sku} (tried ${lookup.tried.join(', ')}); nothing was created`,
    );
  }
  const images = await rehostImages(ctx, input.images);
  return { ...resolved, images };
}

/** The synchronous half, in the transaction: re-checks rules, creates card and listing. */
export function commitCreate(
  ctx: WriteContext,
  ids: IdSource,
  input: CreateInput,
  resolved: ResolvedCreate,
): ListingWithCardRow {
  const { store, now, scope } = ctx;
  let item: InventoryItemRow;
  if ('existing' in resolved.item) {
    item = store.catalog.itemById(resolved.item.existing.id)!;
    assertCardListable(store, item);
  } else {
    // The seller may already hold this slab (or a concurrent create just added it): list that card.
    const held = store.catalog.itemByCert(resolved.item.create.cert_number, scope);
    if (held && held.grader === resolved.item.create.grader) {
      assertCardListable(store, held);
      item = held;
    } else {
      item = createInventoryItem(store, ids, now, scope, resolved.item.create);
    }
  }
  if (resolved.start.kind === 'live') assertUnderCap(ctx);
  const listing = insertListing(
    store,
    ids,
    now,
    scope,
    [item.id],
    // The input's terms, as ListingTerms names them (insertListing reads nothing else of it).
    { ...input, title: input.title ?? resolved.defaultTitle, images: resolved.images },
    resolved.start,
  );
  emitProductEvent(store, ids, now, 'products/create', listing.id);
  return store.listings.getById(listing.id)!;
}
