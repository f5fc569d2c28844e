import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  HUB_EVENTS_PATH,
  HUB_LOG_PATH,
  type HubLogEntry,
  type HubStatus,
  type HubWebhookEvent,
} from '../../client/hub-messages';
import { Listeners } from '../../client/listeners';
import { KeyGovernor } from '../governor/key-governor';
import { DeliveryLedger } from './delivery-ledger';
import { guarded, reportBackgroundError } from './background-error';
import { SandboxRegistration, type SandboxTarget } from './sandbox-registration';
import { Slots } from './slots';
import { MAX_DELIVERY_READS, receiveWebhook, WEBHOOK_PATH } from './webhook-receiver';

/** The hub's routes: the API's deliveries, every tab's stream, and the events view's log. */
export const HUB_PATHS = { webhooks: WEBHOOK_PATH, events: HUB_EVENTS_PATH, log: HUB_LOG_PATH };

const LOG_SIZE = 200;
const HEARTBEAT_MS = 15_000;
/** Tabs served at once: each holds a socket and its buffer. */
export const MAX_STREAM_CLIENTS = 200;
/** Tabs one session holds at once: a newer one replaces its oldest (no session fills the rest). */
export const MAX_STREAMS_PER_SESSION = 8;
/** A tab that lets this much pile up unread is dropped (it reconnects and reads what it missed). */
const MAX_CLIENT_BACKLOG_BYTES = 4 * 1024 * 1024;
/** Status changes that come in floods (deliveries, refused posts) go out at most this often. */
const STATUS_COALESCE_MS = 500;
/** How often the streams' sessions are looked up with nothing pushed (expiry, another process). */
export const SESSION_SWEEP_MS = 2_000;

/** The sign-in side's word on sessions, by the id the gate names them by (its hash). */
export interface SessionLiveness {
  /** False once the session is over; asking must not put its idle expiry off. */
  alive(sessionId: string): boolean;
  /** Calls `listener` with sessions just ended (or all of one account's); answers the unsubscribe. */
  onEnded?(listener: (sessionIds: readonly string[] | 'all-of-user') => void): () => void;
}

export interface HubOptions {
  /** Signing secrets of the endpoint registered on a deployment: current, then previous. */
  secrets?: readonly string[];
  /** Where accepted event ids are kept (default `:memory:`; the servers pass `.sandbox/hub.db`). */
  ledgerPath?: string;
  /** An embedded sandbox to register with once the server listens. */
  registerWith?: SandboxTarget;
  /** The sign-in side's word on sessions: a stream of an ended session is closed. */
  sessions?: SessionLiveness;
}

/** The key's governor, the webhook receiver, and server-sent events to every tab (ended with their sessions). */
export class ServerHub {
  readonly governor: KeyGovernor;
  readonly ledger: DeliveryLedger;
  /** Deliveries' bodies being read, on the main port and the door together; newest read wins. */
  readonly reads = new Slots<AbortController>(
    { total: MAX_DELIVERY_READS, perKey: MAX_DELIVERY_READS },
    (read) => read.abort(),
  );
  private readonly registration: SandboxRegistration | undefined;
  private readonly configured: readonly string[];
  private secretList: readonly string[];
  /** Every open stream, oldest first, with its session (none without sign-in). */
  private readonly clients = new Map<ServerResponse, string | undefined>();
  private readonly corked = new Set<ServerResponse>();
  private readonly entries: HubLogEntry[] = [];
  private sequence = 0;
  private statusValue: HubStatus;
  private timers: Partial<Record<'heartbeat' | 'status' | 'bucket' | 'sweep', NodeJS.Timeout>> = {};
  private readonly stops: (() => void)[] = [];
  private readonly deliveries = new Listeners<[topic: string, payload: unknown]>();
  /** Told each verified delivery that is not a test (the replica applies it). */
  readonly onDelivery = this.deliveries.subscribe;
  private readonly lost = new Listeners();
  /** Told when deliveries may have been lost (our endpoint was found gone): read again. */
  readonly onDeliveriesLost = this.lost.subscribe;
  /** Messages a tab is given as its stream opens, besides the status and the bucket. */
  private greeting: () => Record<string, unknown> = () => ({});

  constructor(
    apiKey: string,
    private readonly options: HubOptions = {},
  ) {
    const { registerWith, sessions } = options;
    this.governor = new KeyGovernor(apiKey);
    this.secretList = this.configured = (options.secrets ?? []).filter(Boolean);
    this.ledger = new DeliveryLedger(options.ledgerPath ?? ':memory:');
    this.statusValue = {
      webhooks: this.secretList.length > 0 ? 'configured' : 'off',
      path: WEBHOOK_PATH,
      lastDeliveryAt: undefined,
      startedAt: new Date().toISOString(),
      rejectedDeliveries: {},
    };
    if (registerWith) this.registration = new SandboxRegistration(registerWith, this);
    // The meter of every tab: the governor's model, at most five times a second.
    this.stops.push(
      this.governor.subscribe(() => {
        if (this.clients.size > 0) this.soon('bucket', 200, () => this.governor.snapshot());
      }),
    );
    if (!sessions) return;
    const stop = sessions.onEnded?.((ended) =>
      guarded('closing the streams of ended sessions', () =>
        ended === 'all-of-user' ? this.checkSessions() : this.endSessions(new Set(ended)),
      ),
    );
    if (stop) this.stops.push(stop);
    this.timers.sweep = setInterval(
      () => guarded('looking up the streams’ sessions', () => this.checkSessions()),
      SESSION_SWEEP_MS,
    ).unref();
  }

  /** Once listening: registers with an embedded sandbox, again when a reset drops the endpoint. */
  started(serverUrl: string): Promise<void> | undefined {
    return this.registration?.start(`${serverUrl}${WEBHOOK_PATH}`);
  }

  secrets(): readonly string[] {
    return this.secretList;
  }

  /** Registered: its secret, then those configured; rotated: the previous ones still accepted. */
  useSecret(secret: string, registered: boolean): void {
    const others = (registered ? this.configured : this.secretList).filter((s) => s !== secret);
    this.secretList = registered ? [secret, ...others] : [secret, ...others].slice(0, 3);
    if (registered) this.setStatus({ webhooks: 'registered' });
  }

  /** Our endpoint was found gone or disabled: deliveries were lost meanwhile. */
  deliveriesLost(): void {
    guarded('telling of lost deliveries', () => this.lost.tell());
  }

  receive(request: IncomingMessage, response: ServerResponse): Promise<void> {
    return receiveWebhook(request, response, this);
  }

  delivered(topic: string, payload: unknown): void {
    this.deliveries.tell(topic, payload);
  }

  receivesWebhooks(): boolean {
    return this.statusValue.webhooks !== 'off';
  }

  greetWith(greeting: () => Record<string, unknown>): void {
    this.greeting = greeting;
  }

  log() {
    return { status: this.statusValue, entries: this.entries, bucket: this.governor.snapshot() };
  }

  status(): HubStatus {
    return this.statusValue;
  }

  setStatus(change: Partial<HubStatus>): void {
    this.statusValue = { ...this.statusValue, ...change };
    this.broadcast('status', this.statusValue);
  }

  /** Counts one post refused before it was verified; the tabs hear of it within half a second. */
  countRejected(reason: string): void {
    const counts = this.statusValue.rejectedDeliveries ?? {};
    this.statusSoon({ rejectedDeliveries: { ...counts, [reason]: (counts[reason] ?? 0) + 1 } });
  }

  /** A tab's event stream until it or its session (its id hash) ends; 503 when all are taken. */
  openStream(response: ServerResponse, sessionId?: string): void {
    if (sessionId !== undefined) this.makeRoomFor(sessionId);
    if (this.clients.size >= MAX_STREAM_CLIENTS) {
      response
        .writeHead(503, { 'content-type': 'text/plain; charset=utf-8', 'retry-after': '30' })
        .end('Too many open event streams.\n');
      return;
    }
    let greeting: Record<string, unknown> = {};
    guarded('greeting a tab’s stream', () => (greeting = this.greeting()));
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    response.write('retry: 1000\n\n');
    this.clients.set(response, sessionId);
    const initial = { status: this.statusValue, bucket: this.governor.snapshot(), ...greeting };
    for (const [event, data] of Object.entries(initial))
      this.sendTo(response, this.frame(event, data));
    response.on('close', () => {
      this.clients.delete(response);
      if (this.clients.size > 0) return;
      clearInterval(this.timers.heartbeat);
      this.timers.heartbeat = undefined;
    });
    this.timers.heartbeat ??= setInterval(() => {
      for (const client of this.clients.keys()) this.sendTo(client, ': keep-alive\n\n');
    }, HEARTBEAT_MS).unref();
  }

  /** Pushes a verified delivery to every tab (throws only if it cannot be serialized). */
  publishWebhook(event: HubWebhookEvent): void {
    const message = this.frame('webhook', event);
    this.statusSoon({ lastDeliveryAt: event.receivedAt });
    this.sendAll(message);
  }

  record(entry: HubLogEntry): void {
    this.entries.push(entry);
    if (this.entries.length > LOG_SIZE) this.entries.splice(0, this.entries.length - LOG_SIZE);
    this.broadcast('log', entry);
  }

  /** Sends a message to every tab; a message that cannot be serialized is reported, not thrown. */
  broadcast(event: string, data: unknown): void {
    guarded(`serializing a ${event} message`, () => this.sendAll(this.frame(event, data)));
  }

  sessionStreamCount(sessionId: string): number {
    return [...this.clients.values()].filter((owner) => owner === sessionId).length;
  }

  endSessions(sessionIds: ReadonlySet<string>): void {
    for (const [client, owner] of [...this.clients]) {
      if (owner !== undefined && sessionIds.has(owner)) this.closeStream(client, 'session_ended');
    }
  }

  close(): void {
    this.registration?.stop();
    for (const timer of Object.values(this.timers)) clearTimeout(timer);
    this.timers = {};
    for (const stop of this.stops) stop();
    for (const client of this.clients.keys()) client.end();
    this.clients.clear();
    this.ledger.close();
  }

  /** Ends the streams of every session over (a lookup that fails counts as over). */
  private checkSessions(): void {
    const { sessions } = this.options;
    if (!sessions) return;
    const over = new Set<string>();
    for (const id of new Set(this.clients.values())) {
      if (id === undefined || over.has(id)) continue;
      let alive = false;
      guarded('a session lookup', () => (alive = sessions.alive(id)));
      if (!alive) over.add(id);
    }
    if (over.size > 0) this.endSessions(over);
  }

  /** The session's oldest streams go until a new one fits its share. */
  private makeRoomFor(sessionId: string): void {
    let count = this.sessionStreamCount(sessionId);
    for (const [client, owner] of [...this.clients]) {
      if (count < MAX_STREAMS_PER_SESSION) return;
      if (owner !== sessionId) continue;
      this.closeStream(client, 'replaced_by_newer_tab');
      count--;
    }
  }

  /** Tells the tab why, then ends its stream (a tab told `session_ended` should not reconnect). */
  private closeStream(client: ServerResponse, reason: string): void {
    this.clients.delete(client);
    try {
      if (!client.destroyed) client.end(this.frame('closed', { reason }));
    } catch (error) {
      client.destroy();
      reportBackgroundError('closing a tab’s stream', error);
    }
  }

  /** Every tab whose session still lives gets the message; the others' streams end first. */
  private sendAll(message: string): void {
    if (this.clients.size === 0) return;
    guarded('looking up the streams’ sessions', () => this.checkSessions());
    for (const client of this.clients.keys()) this.sendTo(client, message);
  }

  private sendTo(client: ServerResponse, message: string): void {
    try {
      if (client.writableLength > MAX_CLIENT_BACKLOG_BYTES) {
        this.clients.delete(client);
        client.destroy();
        return;
      }
      // A burst's messages to one tab leave in one write at the end of the turn, not one each.
      if (!this.corked.has(client)) {
        this.corked.add(client);
        client.cork();
        setImmediate(() => {
          this.corked.delete(client);
          client.uncork();
        });
      }
      client.write(message);
    } catch (error) {
      this.clients.delete(client);
      reportBackgroundError('writing to a tab', error);
    }
  }

  private frame(event: string, data: unknown): string {
    return `id: ${++this.sequence}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
  }

  private statusSoon(change: Partial<HubStatus>): void {
    this.statusValue = { ...this.statusValue, ...change };
    this.soon('status', STATUS_COALESCE_MS, () => this.statusValue);
  }

  /** The message within `ms`, once however often it was asked for meanwhile (its newest data). */
  private soon(event: 'status' | 'bucket', ms: number, data: () => unknown): void {
    this.timers[event] ??= setTimeout(() => {
      this.timers[event] = undefined;
      this.broadcast(event, data());
    }, ms).unref();
  }
}
