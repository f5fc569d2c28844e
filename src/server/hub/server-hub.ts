import type { IncomingMessage, ServerResponse } from 'node:http';
import { KeyGovernor } from '../governor/key-governor';
import { BodyReadSlots } from './body-read-slots';
import { DeliveryLedger } from './delivery-ledger';
import { reportBackgroundError } from './background-error';
import { EventHub } from './event-hub';
import { controlHeaders, registerWithSandbox } from './sandbox-registration';
import type { SessionLiveness } from './session-liveness';
import { MAX_DELIVERY_READS, receiveWebhook, WEBHOOK_PATH } from './webhook-receiver';

/** The hub's routes: the API's deliveries, every tab's stream, and the events view's log. */
export const HUB_PATHS = {
  webhooks: WEBHOOK_PATH,
  events: '/hub/events',
  log: '/hub/log',
} as const;

export interface HubOptions {
  /** Signing secrets of the endpoint registered on a deployment: current, then previous. */
  secrets?: readonly string[];
  /** Where accepted event ids are kept (default `:memory:`; the servers pass `.sandbox/hub.db`). */
  ledgerPath?: string;
  /** An embedded sandbox to register with once the server listens (its control token if closed). */
  registerWith?: { sandboxUrl: string; sellerId: string; controlToken?: string };
  /** The sign-in side's word on sessions: a stream of an ended session is closed. */
  sessions?: SessionLiveness;
}

/**
 * The server as the seller's hub: the key's governor, the webhook receiver and its ledger, and the
 * event stream to every tab.
 */
export class ServerHub {
  readonly governor: KeyGovernor;
  readonly events: EventHub;
  readonly ledger: DeliveryLedger;
  /** Deliveries' bodies being read, on the main port and the door together. */
  readonly reads = new BodyReadSlots(MAX_DELIVERY_READS);
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
    this.events = new EventHub({
      webhooks: this.secretList.length > 0 ? 'configured' : 'off',
      path: WEBHOOK_PATH,
    });
    if (options.sessions) this.events.watchSessions(options.sessions);
    // The meter of every tab: the governor's model, at most five times a second.
    this.unsubscribe = this.governor.subscribe(() => {
      if (this.bucketTimer || this.events.clientCount() === 0) return;
      this.bucketTimer = setTimeout(() => {
        this.bucketTimer = undefined;
        this.events.broadcast('bucket', this.governor.snapshot());
      }, 200);
    });
  }

  /**
   * Once listening: registers with an embedded sandbox, and again whenever the endpoint is gone or
   * disabled (a sandbox reset empties it).
   */
  async started(serverUrl: string): Promise<void> {
    const target = this.options.registerWith;
    if (!target) return;
    await this.register(`${serverUrl}${WEBHOOK_PATH}`);
    this.watch = setInterval(() => {
      this.checkRegistration().catch((error: unknown) =>
        reportBackgroundError('checking the sandbox registration', error),
      );
    }, 1000);
    this.watch.unref?.();
  }

  private async register(receiverUrl: string): Promise<void> {
    const target = this.options.registerWith!;
    const { id, secret } = await registerWithSandbox(
      target.sandboxUrl,
      target.sellerId,
      receiverUrl,
      target.controlToken,
    );
    this.registration = { id, receiverUrl };
    this.secretList = [secret, ...(this.options.secrets ?? []).filter((s) => s && s !== secret)];
    this.events.setStatus({ webhooks: 'registered' });
  }

  private async checkRegistration(): Promise<void> {
    const target = this.options.registerWith;
    if (this.checking || !target || !this.registration) return;
    this.checking = true;
    try {
      const response = await fetch(
        `${target.sandboxUrl}/_sandbox/webhooks/${encodeURIComponent(this.registration.id)}`,
        { headers: controlHeaders(target.controlToken) },
      );
      const body = response.ok
        ? ((await response.json()) as { webhook?: { enabled?: boolean; secret?: string } })
        : undefined;
      const webhook = body?.webhook;
      if (!webhook || webhook.enabled === false) {
        await this.register(this.registration.receiverUrl);
      } else if (webhook.secret && webhook.secret !== this.secretList[0]) {
        // Rotated through the control API: the new secret first, the previous one still accepted.
        this.secretList = [
          webhook.secret,
          ...this.secretList.filter((s) => s !== webhook.secret),
        ].slice(0, 3);
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

  /**
   * A tab's event stream; `sessionId` is the signed-in session's id as SessionLiveness knows it
   * (its hash): its streams share its slots and end with it.
   */
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
  sendLog(response: ServerResponse): void {
    response.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
    });
    response.end(
      JSON.stringify({
        status: this.events.status(),
        entries: this.events.entries(),
        bucket: this.governor.snapshot(),
      }),
    );
  }

  close(): void {
    if (this.watch) clearInterval(this.watch);
    this.unsubscribe();
    if (this.bucketTimer) clearTimeout(this.bucketTimer);
    this.events.close();
    this.ledger.close();
  }
}
