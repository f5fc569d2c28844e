import type { IncomingMessage, ServerResponse } from 'node:http';
import { HUB_EVENTS_PATH, HUB_LOG_PATH } from '../../client/hub-messages';
import { KeyGovernor } from '../governor/key-governor';
import { DeliveryLedger } from './delivery-ledger';
import { reportBackgroundError } from './background-error';
import { EventHub, type SessionLiveness } from './event-hub';
import { Slots } from './slots';
import { MAX_DELIVERY_READS, receiveWebhook, WEBHOOK_PATH } from './webhook-receiver';

/** The hub's routes: the API's deliveries, every tab's stream, and the events view's log. */
export const HUB_PATHS = { webhooks: WEBHOOK_PATH, events: HUB_EVENTS_PATH, log: HUB_LOG_PATH };

/** An embedded sandbox to register with once the server listens (its control token if closed). */
interface SandboxTarget {
  sandboxUrl: string;
  sellerId: string;
  controlToken?: string;
}

export interface HubOptions {
  /** Signing secrets of the endpoint registered on a deployment: current, then previous. */
  secrets?: readonly string[];
  /** Where accepted event ids are kept (default `:memory:`; the servers pass `.sandbox/hub.db`). */
  ledgerPath?: string;
  registerWith?: SandboxTarget;
  /** The sign-in side's word on sessions: a stream of an ended session is closed. */
  sessions?: SessionLiveness;
}

interface Webhook {
  id: string;
  url: string;
  secret: string;
  enabled?: boolean;
}

/** A call to the sandbox's control API; undefined when it refuses. */
async function control<T>(target: SandboxTarget, method: string, path: string, body?: unknown) {
  const response = await fetch(`${target.sandboxUrl}/_sandbox${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(target.controlToken ? { authorization: `Bearer ${target.controlToken}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.ok) return (await response.json()) as T;
  await response.body?.cancel();
  return undefined;
}

/** The server as the seller's hub: the key's governor, the webhook receiver, every tab's stream. */
export class ServerHub {
  readonly governor: KeyGovernor;
  readonly events: EventHub;
  readonly ledger: DeliveryLedger;
  /** Deliveries' bodies being read, on the main port and the door together; newest read wins. */
  readonly reads = new Slots<AbortController>(
    { total: MAX_DELIVERY_READS, perKey: MAX_DELIVERY_READS },
    (read) => read.abort(),
  );
  private secretList: string[];
  private bucketTimer: ReturnType<typeof setTimeout> | undefined;
  private registration: { id: string; receiverUrl: string } | undefined;
  private watch: ReturnType<typeof setInterval> | undefined;
  private checking = false;
  private readonly unsubscribe: () => void;
  private readonly deliveryListeners = new Set<(topic: string, payload: unknown) => void>();
  /** Messages a tab is given as its stream opens, besides the status and the bucket. */
  private greeting: () => Record<string, unknown> = () => ({});

  constructor(
    apiKey: string,
    private readonly options: HubOptions = {},
  ) {
    this.governor = new KeyGovernor(apiKey);
    this.secretList = (options.secrets ?? []).filter(Boolean);
    this.ledger = new DeliveryLedger(options.ledgerPath ?? ':memory:');
    const webhooks = this.secretList.length > 0 ? 'configured' : 'off';
    this.events = new EventHub({ webhooks, path: WEBHOOK_PATH }, options.sessions);
    // The meter of every tab: the governor's model, at most five times a second.
    this.unsubscribe = this.governor.subscribe(() => {
      if (this.bucketTimer || this.events.clientCount() === 0) return;
      this.bucketTimer = setTimeout(() => {
        this.bucketTimer = undefined;
        this.events.broadcast('bucket', this.governor.snapshot());
      }, 200);
    });
  }

  /** Once listening: registers with an embedded sandbox, again when a reset drops the endpoint. */
  async started(serverUrl: string): Promise<void> {
    if (!this.options.registerWith) return;
    await this.register(`${serverUrl}${WEBHOOK_PATH}`);
    this.watch = setInterval(() => {
      this.checkRegistration().catch((error: unknown) =>
        reportBackgroundError('checking the sandbox registration', error),
      );
    }, 1000);
    this.watch.unref?.();
  }

  /** Registers our webhook path with the sandbox (one for the same URL reused); its secret first. */
  private async register(receiverUrl: string): Promise<void> {
    const target = this.options.registerWith!;
    const seller = encodeURIComponent(target.sellerId);
    const listed = await control<{ webhooks: Webhook[] }>(
      target,
      'GET',
      `/webhooks?seller_id=${seller}`,
    );
    if (!listed) throw new Error(`The sandbox at ${target.sandboxUrl} did not list its webhooks`);
    const known = listed.webhooks.find((webhook) => webhook.url === receiverUrl);
    const [method, path, body] = known
      ? ['PATCH', `/webhooks/${known.id}`, { enabled: true }]
      : ['POST', '/webhooks', { seller_id: target.sellerId, url: receiverUrl }];
    const made = await control<{ webhook: Webhook }>(target, method, path, body);
    if (!made) throw new Error(`The sandbox at ${target.sandboxUrl} refused our webhook`);
    const { id, secret } = made.webhook;
    this.registration = { id, receiverUrl };
    this.secretList = [secret, ...(this.options.secrets ?? []).filter((s) => s && s !== secret)];
    this.events.setStatus({ webhooks: 'registered' });
  }

  private async checkRegistration(): Promise<void> {
    const target = this.options.registerWith;
    if (this.checking || !target || !this.registration) return;
    this.checking = true;
    try {
      const path = `/webhooks/${encodeURIComponent(this.registration.id)}`;
      const webhook = (await control<{ webhook?: Partial<Webhook> }>(target, 'GET', path))?.webhook;
      if (!webhook || webhook.enabled === false) {
        await this.register(this.registration.receiverUrl);
      } else if (webhook.secret && webhook.secret !== this.secretList[0]) {
        // Rotated through the control API: the new secret first, the previous one still accepted.
        const others = this.secretList.filter((s) => s !== webhook.secret);
        this.secretList = [webhook.secret, ...others].slice(0, 3);
      }
    } catch {
      // The sandbox is stopping or busy: look again in a second.
    } finally {
      this.checking = false;
    }
  }

  secrets(): readonly string[] {
    return this.secretList;
  }

  /** One webhook delivery (the main port's `/hub/webhooks` and the webhook door alike). */
  receive(request: IncomingMessage, response: ServerResponse): Promise<void> {
    return receiveWebhook(request, response, {
      secrets: () => this.secretList,
      ledger: this.ledger,
      hub: this.events,
      reads: this.reads,
      onDelivery: (topic, payload) => {
        for (const listener of this.deliveryListeners) listener(topic, payload);
      },
    });
  }

  /** Told every verified, new, non-test delivery (the replica); answers the unsubscribe. */
  onDelivery(listener: (topic: string, payload: unknown) => void): () => void {
    this.deliveryListeners.add(listener);
    return () => this.deliveryListeners.delete(listener);
  }

  /** Whether deliveries are coming: an endpoint registered, or its secret configured. */
  receivesWebhooks(): boolean {
    return this.events.status().webhooks !== 'off';
  }

  /** A tab's event stream; a signed-in one's session (its id hash) shares its slots and ends it. */
  openStream(response: ServerResponse, sessionId?: string): void {
    let greeting: Record<string, unknown> = {};
    try {
      greeting = this.greeting();
    } catch (error) {
      reportBackgroundError('greeting a tab’s stream', error);
    }
    const initial = { bucket: this.governor.snapshot(), ...greeting };
    if (!this.events.open(response, initial, sessionId)) {
      response
        .writeHead(503, { 'content-type': 'text/plain; charset=utf-8', 'retry-after': '30' })
        .end('Too many open event streams.\n');
    }
  }

  /** What each tab is told as its stream opens (the alerts it may not have seen). */
  greetWith(greeting: () => Record<string, unknown>): void {
    this.greeting = greeting;
  }

  /** The events view's log: the stream's status, the last deliveries and the bucket. */
  log() {
    const { events } = this;
    return { status: events.status(), entries: events.entries(), bucket: this.governor.snapshot() };
  }

  close(): void {
    clearInterval(this.watch);
    this.unsubscribe();
    clearTimeout(this.bucketTimer);
    this.events.close();
    this.ledger.close();
  }
}
