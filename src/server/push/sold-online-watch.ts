import type { HubSoldOnlineAlert } from '../../client/hub-messages';
import type { ServerHub } from '../hub/server-hub';
import { paths } from '../../shared/paths';
import { guarded } from '../hub/background-error';
import type { Replica } from '../replica/replica';
import type { Show, ShowStore } from '../shows/show-store';
import type { PushStore } from './push-store';
import { isRecord } from '../../shared/is-record';

/** What a phone shows for a push; one notification per `tag` (a second push replaces the first). */
export interface PushMessage {
  title: string;
  body: string;
  /** An app path (the counter view of the slab). */
  url: string;
  tag: string;
}

/** The stream's message that carries the alerts. */
const SOLD_ONLINE_MESSAGE = 'sold_online';
/** How long an alert is given again to a tab that opens (a show weekend, and a day after). */
const ALERT_KEPT_MS = 4 * 24 * 60 * 60_000;
const ALERTS_GIVEN = 50;
/** The shows read for their cases: every show of the coming days is among the newest. */
const SHOWS_READ = 200;
/** Changes come in runs (a page of a walk, a sale's two deliveries): looked at once per run. */
const LOOK_AFTER_MS = 100;

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);

// Sold is `archived` with reason `sold`; a list read carries no reason (a deactivation is archived
// too), so an archived listing with none is not taken for sold: its order tells.
const listingSold = (row: Record<string, unknown>) =>
  row.status === 'archived' && row.unavailable_reason === 'sold';

/** The listings an order sold (`line_items[].product_id`; none once cancelled). */
function listingsSoldBy(order: Record<string, unknown>): string[] {
  if (text(order.cancelled_at) || !Array.isArray(order.line_items)) return [];
  return order.line_items.flatMap((line) =>
    isRecord(line) && typeof line.product_id === 'string' ? [line.product_id] : [],
  );
}

/** The card as the listing's row names it, else as the order's line does (its cert as `sku`). */
function cardOf(row: Record<string, unknown> | undefined, order: unknown, listingId: string) {
  const card = isRecord(row?.card) ? row.card : {};
  const lines = isRecord(order) && Array.isArray(order.line_items) ? order.line_items : [];
  const line = lines.find((item) => isRecord(item) && item.product_id === listingId) ?? {};
  return {
    title: text(row?.title) ?? text(card.title) ?? text(line.title),
    certNumber: text(card.cert_number) ?? text(line.sku),
    grader: text(card.grader),
  };
}

// Tells the table once per online sale of a case slab (tabs and phones): the cases of shows dated
// yesterday (UTC) or later, today somewhere on Earth or to come; not one sold at the show itself.
export class SoldOnlineWatch {
  private orderCursor: number;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly unsubscribe: () => void;
  private closed = false;
  /** The pushes under way (tests and close wait for them). */
  private sending: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly replica: Replica,
    private readonly shows: ShowStore,
    private readonly store: PushStore,
    /** Sends a push to every subscribed phone (never throws). */
    private readonly send: (message: PushMessage) => Promise<unknown>,
    private readonly hub: Pick<ServerHub, 'broadcast' | 'greetWith'>,
  ) {
    // A tab that opens is given the recent alerts (the browser hides those its seller dismissed).
    hub.greetWith(() => {
      const since = new Date(Date.now() - ALERT_KEPT_MS).toISOString();
      return { [SOLD_ONLINE_MESSAGE]: { alerts: store.alertsSince(since, ALERTS_GIVEN) } };
    });
    // Orders from here on: what sold before is on its listing's row, looked at below.
    this.orderCursor = replica.store.changeNumber();
    this.unsubscribe = replica.onChange((collection) => {
      if (collection === 'listings' || collection === 'orders') this.soon();
    });
  }

  /** Looks now (at start, then after each run of changes): every watched slab's row, new orders. */
  look(): void {
    if (this.closed) return;
    guarded('looking for case slabs sold online', () => {
      for (const alert of this.findSales()) this.tell(alert);
    });
  }

  /** Resolves once the pushes started so far have been sent (or given up). */
  settled(): Promise<void> {
    return this.sending.then(() => undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.unsubscribe();
    if (this.timer) clearTimeout(this.timer);
    await this.settled();
  }

  private soon(): void {
    if (this.closed) return;
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.look();
    }, LOOK_AFTER_MS);
    this.timer.unref?.();
  }

  /** The case slabs newly sold online, each once (the store keeps which were told). */
  private findSales(): HubSoldOnlineAlert[] {
    const { replica, shows, store } = this;
    const cutoff = new Date(Date.now() - 24 * 60 * 60_000).toISOString().slice(0, 10);
    const caseOf = new Map<string, Show>();
    for (const show of shows.shows(SHOWS_READ)) {
      if (show.date < cutoff) continue;
      for (const id of show.caseListingIds) if (!caseOf.has(id)) caseOf.set(id, show);
    }
    // New orders since the last look, by the listing they sold.
    const ordered = new Map<string, Record<string, unknown>>();
    for (const order of replica.store.changedSince('orders', this.orderCursor)) {
      this.orderCursor = Math.max(this.orderCursor, order.change);
      for (const id of listingsSoldBy(order.body)) ordered.set(id, order.body);
    }
    if (caseOf.size === 0) return [];
    const fresh: HubSoldOnlineAlert[] = [];
    for (const [listingId, show] of caseOf) {
      const row = replica.store.row('listings', listingId)?.body;
      const order = ordered.get(listingId);
      if (!order && !(row && listingSold(row))) continue;
      // A slab recorded sold at the show is not told (Sold here said it); a told one not again.
      if (shows.saleOf(listingId)) continue;
      const { title, certNumber, grader } = cardOf(row, order, listingId);
      const alert: HubSoldOnlineAlert = {
        listingId,
        title: title ?? 'A slab of your case',
        certNumber,
        grader,
        showKey: show.key,
        showName: show.name,
        soldAt: new Date().toISOString(),
        url: certNumber
          ? paths.showCert.to(certNumber, grader ?? undefined)
          : paths.show.to(show.key),
      };
      if (store.recordAlert(alert)) fresh.push(alert);
    }
    return fresh;
  }

  private tell(alert: HubSoldOnlineAlert): void {
    this.hub.broadcast(SOLD_ONLINE_MESSAGE, { alerts: [alert] });
    const cert = alert.certNumber ? ` (cert ${alert.certNumber})` : '';
    const push = this.send({
      title: 'Sold online: pull it from the table',
      body: `${alert.title}${cert} sold online. Pull it from the ${alert.showName} table.`,
      url: alert.url,
      tag: alert.listingId,
    });
    this.sending = Promise.all([this.sending, push]);
  }
}
