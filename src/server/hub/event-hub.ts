import type { ServerResponse } from 'node:http';

// The messages' shapes are shared with the tabs that read them (browser-safe, types only).
export type { HubLogEntry, HubStatus, HubWebhookEvent } from '../../lib/live/hub-messages';
import type { HubLogEntry, HubStatus, HubWebhookEvent } from '../../lib/live/hub-messages';

const LOG_SIZE = 200;
const HEARTBEAT_MS = 15_000;

/**
 * The server's fan-out to every open tab: server-sent events on one long response per tab.
 * Messages: `status` (on connect and on change), `webhook` (a verified, first-seen delivery),
 * `log` (every delivery, rejected ones too) and `bucket` (the governor's model of the key's
 * bucket). A comment line every 15 s keeps proxies from closing an idle stream.
 */
export class EventHub {
  private readonly clients = new Set<ServerResponse>();
  private readonly log: HubLogEntry[] = [];
  private sequence = 0;
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  private statusValue: HubStatus;

  constructor(status: Omit<HubStatus, 'lastDeliveryAt' | 'startedAt'>) {
    this.statusValue = {
      ...status,
      lastDeliveryAt: undefined,
      startedAt: new Date().toISOString(),
    };
  }

  status(): HubStatus {
    return this.statusValue;
  }

  setStatus(change: Partial<HubStatus>): void {
    this.statusValue = { ...this.statusValue, ...change };
    this.broadcast('status', this.statusValue);
  }

  entries(): readonly HubLogEntry[] {
    return this.log;
  }

  clientCount(): number {
    return this.clients.size;
  }

  /** Serves one tab's stream until it goes away. */
  open(response: ServerResponse, initial: Record<string, unknown> = {}): void {
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    response.write('retry: 1000\n\n');
    this.clients.add(response);
    this.send(response, 'status', this.statusValue);
    for (const [event, data] of Object.entries(initial)) this.send(response, event, data);
    response.on('close', () => {
      this.clients.delete(response);
      if (this.clients.size === 0 && this.heartbeat) {
        clearInterval(this.heartbeat);
        this.heartbeat = undefined;
      }
    });
    this.heartbeat ??= setInterval(() => {
      for (const client of this.clients) client.write(': keep-alive\n\n');
    }, HEARTBEAT_MS);
    this.heartbeat.unref?.();
  }

  publishWebhook(event: HubWebhookEvent): void {
    this.setStatus({ lastDeliveryAt: event.receivedAt });
    this.broadcast('webhook', event);
  }

  record(entry: HubLogEntry): void {
    this.log.push(entry);
    if (this.log.length > LOG_SIZE) this.log.splice(0, this.log.length - LOG_SIZE);
    this.broadcast('log', entry);
  }

  broadcast(event: string, data: unknown): void {
    for (const client of this.clients) this.send(client, event, data);
  }

  /** Ends every stream (the server is stopping). */
  close(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    for (const client of this.clients) client.end();
    this.clients.clear();
  }

  private send(client: ServerResponse, event: string, data: unknown): void {
    client.write(`id: ${++this.sequence}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }
}
