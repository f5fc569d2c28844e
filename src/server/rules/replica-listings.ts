import { serverLog } from '../log';
import type { Replica } from '../replica/replica';
import { textOrNull as text } from '../replica/row-changes';
import { isRecord } from '../../shared/is-record';
import { exactCents } from '../../shared/money';
import type { CostStore } from '../costs/cost-store';

/** The listings and their cards' costs as the rules read them, by the replica's change numbers. */

/** A listing row as the planner reads it; undefined when it cannot be written. */
function factsOf(row: Record<string, unknown>) {
  const id = text(row.id);
  const price = exactCents(row.price);
  // A degraded record or one without a readable price is never written.
  if (!id || price === null || 'svc_serialization_error' in row) return undefined;
  const card = isRecord(row.card) ? row.card : {};
  const cardId = text(card.id);
  const listedAt = Date.parse(text(row.listed_at) ?? '');
  return {
    id,
    title: text(row.title) ?? id,
    status: text(row.status) ?? 'unknown',
    unavailableReason: text(row.unavailable_reason),
    canReactivate: row.can_reactivate === true,
    priceCents: price,
    minimumOfferCents: exactCents(row.minimum_offer),
    acceptsOffers: row.accepts_offers === true,
    promoted: row.promoted === true,
    isLot: row.is_lot === true,
    grader: text(card.grader),
    grade: text(card.grade),
    category: text(card.category),
    /** Epoch ms; null when the listing never went live. */
    listedAt: Number.isNaN(listedAt) ? null : listedAt,
    cardId,
    costCents: null as bigint | null,
  };
}
/** What the planner needs of a listing (the list view's fields, the card's cost joined in). */
export type ListingFacts = NonNullable<ReturnType<typeof factsOf>>;

/** The seller's own costs kept by the hub: read over the marketplace's. */
export type KeptCosts = Pick<CostStore, 'centsOf' | 'version'>;

export class ReplicaListings {
  private readonly listingsById = new Map<string, ListingFacts>();
  private readonly costs = new Map<string, bigint | null>();
  /** The replica's change number and epoch, and the kept costs' version, the facts are at. */
  private seen = { change: 0, epoch: -1, kept: -1 };
  private warming: ReturnType<typeof setImmediate> | undefined;

  constructor(
    private readonly replica: Replica,
    private readonly kept?: KeptCosts,
  ) {
    // Brought up to date as rows change, between requests: the first click finds them read.
    replica.onChange((collection) => {
      if (collection !== 'listings' && collection !== 'inventory_items') return;
      this.warming ??= setImmediate(() => {
        this.warming = undefined;
        try {
          this.current();
        } catch (error) {
          // Closed meanwhile, or unreadable: the next read tries again, and says so.
          serverLog.debug({ err: error }, 'The rules could not bring the listings up to date');
        }
      });
    });
  }

  /** The listings once the replica is filled (else ReplicaNotReadyError), caught up without webhooks. */
  async listings(): Promise<Map<string, ListingFacts>> {
    await this.replica.ready(['listings', 'inventory_items']);
    if (!this.replica.webhooks()) await this.replica.catchUp(['listings', 'inventory_items']);
    return this.current();
  }

  /** One listing as held now, without waiting for any read (a page's line). */
  known(id: string): ListingFacts | undefined {
    return this.current().get(id);
  }

  /** The facts brought up to the replica's newest change and the kept costs' version. */
  private current(): Map<string, ListingFacts> {
    const store = this.replica.store;
    const epoch = store.epoch();
    if (epoch !== this.seen.epoch) {
      this.listingsById.clear();
      this.costs.clear();
      this.seen = { change: 0, epoch, kept: this.seen.kept };
    }
    const change = store.changeNumber();
    const kept = this.kept?.version() ?? 0;
    if (change === this.seen.change && kept === this.seen.kept) return this.listingsById;
    // A cost changed (the seller's or the marketplace's): every listing's cost is read again.
    let costs = kept !== this.seen.kept;
    for (const item of store.changedSince('inventory_items', this.seen.change)) {
      const cost = exactCents(item.body.cost);
      // The marketplace answers "0.00" for a cost never entered: zero reads as not set, never free.
      this.costs.set(item.id, cost === 0n ? null : cost);
      costs = true;
    }
    for (const row of store.changedSince('listings', this.seen.change)) {
      const facts = factsOf(row.body);
      if (facts) this.listingsById.set(facts.id, facts);
      else this.listingsById.delete(row.id);
      if (facts && !costs) facts.costCents = this.costFor(facts.cardId);
    }
    if (costs)
      for (const facts of this.listingsById.values()) facts.costCents = this.costFor(facts.cardId);
    this.seen = { change, epoch, kept };
    return this.listingsById;
  }

  /** A card's cost: the seller's kept one, else the marketplace's, else not known. */
  private costFor(cardId: string | null | undefined): bigint | null {
    if (!cardId) return null;
    return this.kept?.centsOf(cardId) ?? this.costs.get(cardId) ?? null;
  }
}
