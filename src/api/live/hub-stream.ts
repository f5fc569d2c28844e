import {
  HUB_EVENTS_PATH,
  HUB_LOG_PATH,
  type HubBucket,
  type HubLogEntry,
  type HubReplicaEvent,
  type HubSoldOnlineAlert,
  type HubSoldOnlineEvent,
  type HubStatus,
  type HubWebhookEvent,
} from '../../client/hub-messages';
import { Listeners } from '../../client/listeners';
import { readKeptMap, sessionStore, writeKept } from '../local-store';

/** A configured deployment with no delivery for this long is reported as silent. */
export const SILENT_AFTER_MS = 10 * 60_000;

export interface HubStreamState {
  connection: 'connecting' | 'open' | 'closed';
  status: HubStatus | undefined;
  bucket: HubBucket | undefined;
  /** When the bucket message arrived (epoch ms): the meter drains it from there. */
  bucketAt: number | undefined;
  /** Newest last: what the server's receiver made of each delivery. */
  entries: HubLogEntry[];
  /** The bodies of the deliveries this tab saw arrive, by event id (the log keeps none). */
  payloads: Readonly<Record<string, unknown>>;
  /** True while pushed updates can be trusted (open, verifiable); polling stops. */
  healthy: boolean;
  /** Case slabs sold online, newest first, as the hub told them (dismissals are the page's). */
  soldOnline: readonly HubSoldOnlineAlert[];
}

/** A stream that is not there: closed, nothing told. */
export const CLOSED_STREAM: HubStreamState = {
  connection: 'closed',
  status: undefined,
  bucket: undefined,
  bucketAt: undefined,
  entries: [],
  payloads: {},
  healthy: false,
  soldOnline: [],
};

/** How many delivery bodies a tab keeps for the Events page. */
const KEPT_PAYLOADS = 100;
const PAYLOADS_KEY = 'slabdesk.hub.payloads';

/** A tab's event stream: webhooks to `onWebhook`; `onReconnect` fills the gap after a break. */
export class HubStream {
  private state: HubStreamState = {
    ...CLOSED_STREAM,
    connection: 'connecting',
    payloads: readKeptMap<unknown>(PAYLOADS_KEY, sessionStore()),
  };
  private source: EventSource | undefined;
  private everOpened = false;
  private broken = false;
  private readonly listeners = new Listeners();
  private readonly webhooks = new Listeners<[HubWebhookEvent]>();
  private readonly reconnects = new Listeners();
  private readonly replicaChanges = new Listeners<[HubReplicaEvent]>();
  private silenceTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly base = '') {}

  start(): void {
    if (this.source || typeof EventSource === 'undefined') return;
    const source = new EventSource(`${this.base}${HUB_EVENTS_PATH}`);
    this.source = source;
    source.onopen = () => {
      const reconnected = this.everOpened && this.broken;
      this.everOpened = true;
      this.broken = false;
      this.update({ connection: 'open' });
      void this.loadLog();
      if (reconnected) this.reconnects.tell();
    };
    source.onerror = () => {
      this.broken = true;
      this.update({
        connection: source.readyState === EventSource.CLOSED ? 'closed' : 'connecting',
      });
    };
    // Each message's data is JSON the server made from the shape its name says.
    const on = <T>(name: string, handle: (value: T) => void) =>
      source.addEventListener(name, (event) =>
        handle(JSON.parse((event as MessageEvent<string>).data) as T),
      );
    on<HubStatus>('status', (status) => this.update({ status }));
    on<HubBucket>('bucket', (bucket) => this.update({ bucket, bucketAt: Date.now() }));
    on<HubLogEntry>('log', (entry) =>
      this.update({ entries: [...this.state.entries, entry].slice(-200) }),
    );
    on<HubWebhookEvent>('webhook', (data) => {
      // Kept for the Events page's sentences (the server's log keeps no body), in this tab's
      // session so a reload still reads them (a full storage only costs them); the newest only.
      const kept = Object.entries(this.state.payloads).slice(1 - KEPT_PAYLOADS);
      const payloads = Object.fromEntries([...kept, [data.eventId, data.payload]]);
      this.update({ payloads });
      writeKept(PAYLOADS_KEY, payloads, sessionStore());
      this.webhooks.tell(data);
    });
    on<HubReplicaEvent>('replica', (data) => this.replicaChanges.tell(data));
    on<HubSoldOnlineEvent>('sold_online', (data) => {
      if (data.alerts.length === 0) return;
      // One per slab, newest first: a stream that reconnects is given the same ones again.
      const told = new Set(data.alerts.map((alert) => alert.listingId));
      const kept = this.state.soldOnline.filter((alert) => !told.has(alert.listingId));
      this.update({ soldOnline: [...data.alerts, ...kept].slice(0, 50) });
    });
    // The server ended this stream (the session ended, or newer tabs took its place): reconnecting
    // would only take another tab's place, so it stays closed until the page starts it again.
    source.addEventListener('closed', () => {
      this.stop();
      this.update({ connection: 'closed' });
    });
  }

  stop(): void {
    this.source?.close();
    this.source = undefined;
    if (this.silenceTimer) clearTimeout(this.silenceTimer);
  }

  getState = (): HubStreamState => this.state;

  subscribe = this.listeners.subscribe;
  onWebhook = this.webhooks.subscribe;
  /** Rows changed in the hub's replica: the kept lists read its change feed. */
  onReplica = this.replicaChanges.subscribe;
  onReconnect = this.reconnects.subscribe;

  private async loadLog(): Promise<void> {
    try {
      const response = await fetch(`${this.base}${HUB_LOG_PATH}`, {
        headers: { accept: 'application/json' },
      });
      if (!response.ok) return;
      const body = (await response.json()) as { entries: HubLogEntry[] };
      this.update({ entries: body.entries.slice(-200) });
    } catch {
      // The stream itself says whether the server is there.
    }
  }

  private update(change: Partial<HubStreamState>): void {
    const next = { ...this.state, ...change };
    next.healthy = healthOf(next, Date.now());
    this.state = next;
    this.scheduleSilenceCheck();
    this.listeners.tell();
  }

  /** A configured deployment turns silent by the clock, not by a message: look again then. */
  private scheduleSilenceCheck(): void {
    const status = this.state.status;
    if (this.silenceTimer || status?.webhooks !== 'configured' || !this.state.healthy) return;
    const since = Date.parse(status.lastDeliveryAt ?? status.startedAt);
    this.silenceTimer = setTimeout(
      () => {
        this.silenceTimer = undefined;
        this.update({});
      },
      Math.max(1000, since + SILENT_AFTER_MS - Date.now() + 1000),
    );
  }
}

/** Whether pushed updates can replace polling (see `HubStreamState.healthy`). */
export function healthOf(
  state: Pick<HubStreamState, 'connection' | 'status'>,
  now: number,
): boolean {
  if (state.connection !== 'open' || !state.status) return false;
  if (state.status.webhooks === 'registered') return true;
  if (state.status.webhooks === 'off') return false;
  return now - Date.parse(state.status.lastDeliveryAt ?? state.status.startedAt) < SILENT_AFTER_MS;
}
