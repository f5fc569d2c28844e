import type { IDBPDatabase } from 'idb';
import { Listeners } from '../../client/listeners';
import { openBrowserDb } from '../browser-db';
import { useEffect, useSyncExternalStore } from 'react';
import type { SaleBody } from '../shows/show-api';
import { OUTBOX_DB } from '../../shared/browser-keeps';

/** Table writes wait here (IndexedDB) in order, keys fixed when made, so a resend is a replay. */

/** `held`: made by another account, kept until it signs in; `dropped`: taken off by the seller. */
export type OutboxState =
  'waiting' | 'sending' | 'done' | 'conflict' | 'failed' | 'held' | 'dropped';

/** Who made a write: the account and the session (its tag), or null when sign-in is off. */
export interface MadeBy {
  name: string;
  session: string;
}

interface Common {
  /** Order of making: the outbox sends oldest first. */
  seq: number;
  madeAt: string;
  /** What the seller sees on the row and in the panel. */
  label: string;
  /** Who made it; sent only under that account's session (absent in writes kept before). */
  by?: MadeBy | null;
  state: OutboxState;
  /** The outcome in the seller's words, once sent (or why it waits). */
  outcome?: string;
  /** Technical facts for the Details disclosure. */
  details?: string;
}

/** A show started with no network. */
export interface ShowWrite extends Common {
  kind: 'create-show';
  show: { key: string; name: string; date: string };
}

/** Sold here: the listing taken off the marketplace, then the sale entered in the ledger. */
export interface SaleWrite extends Common {
  kind: 'sell-at-show';
  listingId: string;
  showKey: string;
  /** The deactivation's `Idempotency-Key`, fixed when the sale was made. */
  deactivateKey: string;
  /** The listing's `updated_at` when the seller sold it (the view the seller acted on). */
  listingUpdatedAt: string | null;
  sale: Omit<SaleBody, 'soldOnline' | 'offMarket' | 'note'>;
  /** Set once the deactivation answered, so a retry of the entry keeps what it learned. */
  offMarket?: SaleBody['offMarket'];
  note?: string | null;
  /** The ledger refused it: the listing was sold before, in the ledger's words. */
  soldBefore?: string;
}

/** A new price set with no network, checked against the listing before it is sent. */
export interface PriceWrite extends Common {
  kind: 'set-price';
  listingId: string;
  price: string;
  /** The price the seller changed from, and the listing's `updated_at` then. */
  fromPrice: string;
  listingUpdatedAt: string | null;
  idempotencyKey: string;
}

export type OutboxItem = ShowWrite | SaleWrite | PriceWrite;
type Made = 'seq' | 'state' | 'madeAt' | 'by';
export type NewOutboxItem = Omit<ShowWrite, Made> | Omit<SaleWrite, Made> | Omit<PriceWrite, Made>;

/** A write may be sent only under its maker's account (sign-in off: only one made so). */
export function mayBeSentBy(item: OutboxItem, here: MadeBy | null): boolean {
  const by = item.by ?? null;
  if (here === null) return by === null;
  return by !== null && by.name === here.name;
}

const STORE = 'writes';

export class Outbox {
  private items: OutboxItem[] = [];
  private readonly listeners = new Listeners();
  private db: Promise<IDBPDatabase | undefined> | undefined;
  private loaded: Promise<void> | undefined;

  /** Who is signed in here now (the page's boot facts); null when sign-in is off. */
  whoIsHere: () => MadeBy | null = () => null;
  /** Told when sending met the end of the session (the server asked to sign in). */
  onSessionEnded: () => void = () => undefined;

  constructor(private readonly factory: IDBFactory | undefined) {}

  private database(): Promise<IDBPDatabase | undefined> {
    const factory = this.factory;
    if (!factory) return Promise.resolve(undefined);
    if (this.db) return this.db;
    // Closed when the account's data is cleared (app/clear-account.ts): the next use opens anew.
    const opening = openBrowserDb(factory, { name: OUTBOX_DB, stores: { [STORE]: 'seq' } }, () => {
      if (this.db === opening) this.db = undefined;
    }).catch(() => undefined);
    this.db = opening;
    return opening;
  }

  /** Reads what waited in this browser (once); the in-memory list works without IndexedDB. */
  load(): Promise<void> {
    this.loaded ??= (async () => {
      const db = await this.database();
      if (!db) return;
      const kept = (await db.getAll(STORE)) as OutboxItem[];
      // A write cut off mid-send is sent again, under the same keys.
      const known = new Set(this.items.map((item) => item.seq));
      for (const item of kept) {
        if (!known.has(item.seq)) {
          this.items.push(item.state === 'sending' ? { ...item, state: 'waiting' } : item);
        }
      }
      this.items.sort((a, b) => a.seq - b.seq);
      this.publish();
    })().catch(() => undefined);
    return this.loaded;
  }

  snapshot = (): readonly OutboxItem[] => this.items;

  subscribe = this.listeners.subscribe;

  private publish(): void {
    this.items = [...this.items];
    this.listeners.tell();
  }

  private async persist(item: OutboxItem): Promise<void> {
    const db = await this.database();
    await db?.put(STORE, item);
  }

  async add(write: NewOutboxItem): Promise<OutboxItem> {
    await this.load();
    const last = this.items.at(-1)?.seq ?? 0;
    const item = {
      ...write,
      by: this.whoIsHere(),
      seq: Math.max(last + 1, Date.now()),
      madeAt: new Date().toISOString(),
      state: 'waiting',
    } as OutboxItem;
    this.items.push(item);
    await this.persist(item);
    this.publish();
    return item;
  }

  async update(seq: number, patch: Partial<OutboxItem>): Promise<OutboxItem | undefined> {
    const index = this.items.findIndex((item) => item.seq === seq);
    if (index < 0) return undefined;
    const item = { ...this.items[index]!, ...patch } as OutboxItem;
    this.items[index] = item;
    await this.persist(item);
    this.publish();
    return item;
  }

  /** The account's data was cleared from this browser: nothing stays in memory either. */
  forget(): void {
    this.items = [];
    this.loaded = undefined;
    void this.db?.then((db) => db?.close());
    this.db = undefined;
    this.publish();
  }

  /** Takes a settled write (done, or a conflict the seller settled) off the list. */
  async remove(seq: number): Promise<void> {
    this.items = this.items.filter((item) => item.seq !== seq);
    const db = await this.database();
    await db?.delete(STORE, seq);
    this.publish();
  }
}

let shared: Outbox | undefined;

/** The page's one outbox. */
export function outbox(): Outbox {
  shared ??= new Outbox(typeof indexedDB === 'undefined' ? undefined : indexedDB);
  return shared;
}

/** The outbox's writes, those kept in this browser read in first, drawn again as they change. */
export function useOutboxItems(): readonly OutboxItem[] {
  const box = outbox();
  useEffect(() => void box.load(), [box]);
  return useSyncExternalStore(box.subscribe, box.snapshot, box.snapshot);
}

/** Writes not yet through: waiting, sending, held for their account, or a conflict to settle. */
export const pendingOf = (items: readonly OutboxItem[]) =>
  items.filter((item) => item.state !== 'done' && item.state !== 'dropped');
