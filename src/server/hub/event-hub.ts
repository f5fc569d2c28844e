import type { ServerResponse } from 'node:http';
import { reportBackgroundError } from './background-error';
import type { SessionLiveness } from './session-liveness';
import { SessionWatch } from './session-watch';

// The messages' shapes are shared with the tabs that read them (browser-safe, types only).
export type { HubLogEntry, HubStatus, HubWebhookEvent } from '../../client/hub-messages';
import type { HubLogEntry, HubStatus, HubWebhookEvent } from '../../client/hub-messages';

const LOG_SIZE = 200;
const HEARTBEAT_MS = 15_000;
/** Tabs served at once: each holds a socket and its buffer. */
export const MAX_STREAM_CLIENTS = 200;
/** Tabs one session holds at once: a newer one replaces its oldest, so no session fills the rest. */
export const MAX_STREAMS_PER_SESSION = 8;
/** A tab that lets this much pile up unread is dropped (it reconnects and reads what it missed). */
const MAX_CLIENT_BACKLOG_BYTES = 4 * 1024 * 1024;
/** Status changes that come in floods (deliveries, refused posts) go out at most this often. */
const STATUS_COALESCE_MS = 500;

// Its old home: other modules may still import it from here.
export { reportBackgroundError };

/**
 * Server-sent events to every open tab (`status`, `webhook`, `log`, `bucket`), with a keep-alive
 * comment for proxies; one tab's failed write never reaches the caller.
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
  private watch: SessionWatch | undefined;

  constructor(status: Omit<HubStatus, 'lastDeliveryAt' | 'startedAt'>) {
    this.statusValue = {
      ...status,
      lastDeliveryAt: undefined,
      startedAt: new Date().toISOString(),
      rejectedDeliveries: {},
    };
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

  /**
   * Serves one tab's stream until it goes away or its session ends; false (nothing written) when
   * full. A session's newest tab replaces its oldest past MAX_STREAMS_PER_SESSION.
   */
  open(
    response: ServerResponse,
    initial: Record<string, unknown> = {},
    sessionId?: string,
  ): boolean {
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
    for (const [event, data] of Object.entries(initial)) {
      this.sendTo(response, this.frame(event, data));
    }
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
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    if (this.statusTimer) clearTimeout(this.statusTimer);
    this.statusTimer = undefined;
    this.watch?.stop();
    this.watch = undefined;
    for (const client of this.clients.keys()) client.end();
    this.clients.clear();
  }

  /** Closes the streams of sessions that end (see SessionWatch). */
  watchSessions(liveness: SessionLiveness): void {
    this.watch?.stop();
    this.watch = new SessionWatch(liveness, {
      sessions: () => [...this.clients.values()].filter((id) => id !== undefined),
      end: (ids) => this.endSessions(ids),
    });
  }

  /** Open streams of one session. */
  sessionStreamCount(sessionId: string): number {
    let count = 0;
    for (const owner of this.clients.values()) if (owner === sessionId) count++;
    return count;
  }

  /** Ends the given sessions' streams now; the number closed. */
  endSessions(sessionIds: ReadonlySet<string>): number {
    let closed = 0;
    for (const [client, owner] of [...this.clients]) {
      if (owner !== undefined && sessionIds.has(owner)) {
        this.closeStream(client, 'session_ended');
        closed++;
      }
    }
    return closed;
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
    this.watch?.check();
    for (const client of this.clients.keys()) this.sendTo(client, frame);
  }

  private sendTo(client: ServerResponse, frame: string): void {
    try {
      if (client.writableLength > MAX_CLIENT_BACKLOG_BYTES) {
        this.clients.delete(client);
        client.destroy();
        return;
      }
      this.corkForThisTurn(client);
      client.write(frame);
    } catch (error) {
      this.clients.delete(client);
      reportBackgroundError('writing to a tab', error);
    }
  }

  /** A burst's messages to one tab leave in one write at the end of the turn, not one each. */
  private corkForThisTurn(client: ServerResponse): void {
    if (this.corked.has(client)) return;
    this.corked.add(client);
    client.cork();
    setImmediate(() => {
      this.corked.delete(client);
      client.uncork();
    });
  }

  private statusSoon(): void {
    if (this.statusTimer) return;
    this.statusTimer = setTimeout(() => {
      this.statusTimer = undefined;
      this.broadcast('status', this.statusValue);
    }, STATUS_COALESCE_MS);
    this.statusTimer.unref?.();
  }
}
