import type { ServerResponse } from 'node:http';
import type { HubLogEntry, HubStatus, HubWebhookEvent } from '../../client/hub-messages';
import { reportBackgroundError } from './background-error';

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
  /** Calls `listener` with sessions just ended (`'look'`: unnamed); answers the unsubscribe. */
  onEnded?(listener: (sessionIds: readonly string[] | 'look') => void): () => void;
}

/** Runs a step nobody awaits: a failure is logged, never thrown. */
function guarded(where: string, step: () => void): void {
  try {
    step();
  } catch (error) {
    reportBackgroundError(where, error);
  }
}

/**
 * Server-sent events to every open tab (`status`, `webhook`, `log`, `bucket`, ...), a keep-alive
 * comment for proxies; one tab's failed write never reaches the caller. A stream of a session that
 * is over ends: before every push, every SESSION_SWEEP_MS, and at once when sign-in tells of it.
 */
export class EventHub {
  /** Every open stream, oldest first, with the session it was opened by (none without sign-in). */
  private readonly clients = new Map<ServerResponse, string | undefined>();
  private readonly corked = new Set<ServerResponse>();
  private readonly log: HubLogEntry[] = [];
  private sequence = 0;
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  private statusTimer: ReturnType<typeof setTimeout> | undefined;
  private statusValue: HubStatus;
  private sweep: ReturnType<typeof setInterval> | undefined;
  private stopListening: (() => void) | undefined;

  constructor(
    status: Pick<HubStatus, 'webhooks' | 'path'>,
    private readonly liveness?: SessionLiveness,
  ) {
    this.statusValue = {
      ...status,
      lastDeliveryAt: undefined,
      startedAt: new Date().toISOString(),
      rejectedDeliveries: {},
    };
    if (!liveness) return;
    this.stopListening = liveness.onEnded?.((ended) =>
      guarded('closing the streams of ended sessions', () =>
        ended === 'look' ? this.checkSessions() : this.endSessions(new Set(ended)),
      ),
    );
    this.sweep = setInterval(
      () => guarded('looking up the streams’ sessions', () => this.checkSessions()),
      SESSION_SWEEP_MS,
    );
    this.sweep.unref?.();
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
    const counts = { ...this.statusValue.rejectedDeliveries };
    counts[reason] = (counts[reason] ?? 0) + 1;
    this.statusValue = { ...this.statusValue, rejectedDeliveries: counts };
    this.statusSoon();
  }

  entries(): readonly HubLogEntry[] {
    return this.log;
  }

  clientCount(): number {
    return this.clients.size;
  }

  /** Serves one tab's stream until it or its session ends; false (nothing written) when full. */
  open(response: ServerResponse, initial: Record<string, unknown>, sessionId?: string): boolean {
    if (sessionId !== undefined) this.makeRoomFor(sessionId);
    if (this.clients.size >= MAX_STREAM_CLIENTS) return false;
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    response.write('retry: 1000\n\n');
    this.clients.set(response, sessionId);
    this.sendTo(response, this.frame('status', this.statusValue));
    for (const [event, data] of Object.entries(initial))
      this.sendTo(response, this.frame(event, data));
    response.on('close', () => {
      this.clients.delete(response);
      if (this.clients.size === 0 && this.heartbeat) {
        clearInterval(this.heartbeat);
        this.heartbeat = undefined;
      }
    });
    this.heartbeat ??= setInterval(() => {
      for (const client of this.clients.keys()) this.sendTo(client, ': keep-alive\n\n');
    }, HEARTBEAT_MS);
    this.heartbeat.unref?.();
    return true;
  }

  /** Pushes a verified delivery to every tab (throws only if it cannot be serialized). */
  publishWebhook(event: HubWebhookEvent): void {
    const frame = this.frame('webhook', event);
    this.statusValue = { ...this.statusValue, lastDeliveryAt: event.receivedAt };
    this.statusSoon();
    this.sendAll(frame);
  }

  record(entry: HubLogEntry): void {
    this.log.push(entry);
    if (this.log.length > LOG_SIZE) this.log.splice(0, this.log.length - LOG_SIZE);
    this.broadcast('log', entry);
  }

  /** Sends a message to every tab; a message that cannot be serialized is reported, not thrown. */
  broadcast(event: string, data: unknown): void {
    let frame: string;
    try {
      frame = this.frame(event, data);
    } catch (error) {
      reportBackgroundError(`serializing a ${event} message`, error);
      return;
    }
    this.sendAll(frame);
  }

  /** Ends every stream (the server is stopping). */
  close(): void {
    clearInterval(this.heartbeat);
    clearTimeout(this.statusTimer);
    clearInterval(this.sweep);
    this.heartbeat = this.statusTimer = this.sweep = undefined;
    this.stopListening?.();
    for (const client of this.clients.keys()) client.end();
    this.clients.clear();
  }

  /** Open streams of one session. */
  sessionStreamCount(sessionId: string): number {
    return [...this.clients.values()].filter((owner) => owner === sessionId).length;
  }

  /** Ends the given sessions' streams now. */
  endSessions(sessionIds: ReadonlySet<string>): void {
    for (const [client, owner] of [...this.clients]) {
      if (owner !== undefined && sessionIds.has(owner)) this.closeStream(client, 'session_ended');
    }
  }

  /** Ends the streams of every session over (a lookup that fails counts as over). */
  private checkSessions(): void {
    const { liveness } = this;
    if (!liveness) return;
    const over = new Set<string>();
    for (const id of new Set(this.clients.values())) {
      if (id === undefined || over.has(id)) continue;
      let alive = false;
      guarded('a session lookup', () => (alive = liveness.alive(id)));
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

  /** One message's text, serialized once for every tab. */
  private frame(event: string, data: unknown): string {
    return `id: ${++this.sequence}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
  }

  /** Every tab whose session still lives gets the frame; the others' streams end first. */
  private sendAll(frame: string): void {
    if (this.clients.size === 0) return;
    guarded('looking up the streams’ sessions', () => this.checkSessions());
    for (const client of this.clients.keys()) this.sendTo(client, frame);
  }

  private sendTo(client: ServerResponse, frame: string): void {
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
      client.write(frame);
    } catch (error) {
      this.clients.delete(client);
      reportBackgroundError('writing to a tab', error);
    }
  }

  private statusSoon(): void {
    this.statusTimer ??= setTimeout(() => {
      this.statusTimer = undefined;
      this.broadcast('status', this.statusValue);
    }, STATUS_COALESCE_MS);
    this.statusTimer.unref?.();
  }
}
