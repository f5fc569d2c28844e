import type { SandboxContext } from '../context';
import { onOutbox } from '../domain/events';
import { CURRENT_VERSION } from '../platform/versions';
import { webhookBody } from '../serializers/read-views';
import type { EventRow, WebhookJobRow, WebhookRow } from '../store/webhooks-store';
import { signatureHeader } from './signature';

export const MAX_ATTEMPTS = 8;
/** When each retry is due on the marketplace clock, from 1 min to about a day after the event. */
export const RETRY_OFFSETS_S = [60, 360, 1260, 4860, 12060, 33660, 76860] as const;
export const DEFAULT_TIMEOUT_MS = 10_000;
const CONCURRENCY = 16;

/** Drains the outbox: signs each attempt, retries on the market clock, disables after eight. */
export class WebhookDispatcher {
  private readonly inFlight = new Map<number, Promise<void>>();
  private pumping: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private readonly abort = new AbortController();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly ctx: SandboxContext,
    private readonly timeoutMs = DEFAULT_TIMEOUT_MS,
  ) {
    onOutbox(ctx.store, () => this.kick());
  }

  /** Polls for due retries in real time too (the marketplace clock also moves with real time). */
  start(pollMs = 1000): void {
    this.timer = setInterval(() => this.kick(), pollMs);
    this.timer.unref();
    this.kick();
  }

  /** Starts draining what is due, unless a drain is already running (it will look again). */
  kick(): void {
    if (this.stopped) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = this.pump().finally(() => {
      this.pumping = null;
      if (this.again) {
        this.again = false;
        this.kick();
      }
    });
  }

  /** Resolves once nothing due by the marketplace clock is waiting or being attempted. */
  async settle(): Promise<void> {
    for (let round = 0; round < 1000 && !this.stopped; round++) {
      if (!this.pumping) {
        if (this.ctx.store.webhooks.countDue(this.ctx.clock.now()) === 0) return;
        this.kick();
      }
      await this.pumping;
    }
  }

  /** Stops polling and abandons attempts in flight: their jobs stay pending for the next start. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.abort.abort();
    await Promise.allSettled([...this.inFlight.values()]);
    await this.pumping?.catch(() => undefined);
  }

  private async pump(): Promise<void> {
    const { store, clock } = this.ctx;
    for (;;) {
      if (this.stopped) return;
      const room = CONCURRENCY - this.inFlight.size;
      if (room > 0) {
        for (const job of store.webhooks.dueJobs(clock.now(), room, [...this.inFlight.keys()])) {
          const attempt = this.attempt(job)
            .catch(() => undefined)
            .finally(() => this.inFlight.delete(job.id));
          this.inFlight.set(job.id, attempt);
        }
      }
      if (this.inFlight.size === 0) return;
      await Promise.race(this.inFlight.values());
    }
  }

  /** Sends one attempt of one job and records its result. */
  private async attempt(job: WebhookJobRow): Promise<void> {
    const { store, clock } = this.ctx;
    const webhook = store.webhooks.webhook(job.webhook_id);
    const event = store.webhooks.event(job.event_id);
    if (!webhook || !event || webhook.enabled !== 1) {
      store.webhooks.updateJob({ ...job, state: 'skipped', updated_at: clock.now() });
      return;
    }
    const attempt = job.attempts + 1;
    const result = await this.send(webhook, event, attempt, false);
    if (this.stopped) return;
    const now = clock.now();
    store.transaction(() => {
      if (!store.webhooks.job(job.id)) return; // the store was reset meanwhile
      store.webhooks.logDelivery({
        webhook_id: webhook.id,
        event_id: event.id,
        topic: event.topic,
        attempt,
        ...result,
        test_delivery: 0,
        delivered_at: now,
      });
      const ok =
        result.status_code !== null && result.status_code >= 200 && result.status_code < 300;
      const state = ok ? 'delivered' : attempt >= MAX_ATTEMPTS ? 'failed' : 'pending';
      // A retry falls due at its offset from the event on the marketplace clock.
      const retryAt = job.first_at + (RETRY_OFFSETS_S[attempt - 1] ?? 0) * 1000;
      const next_at = state === 'pending' ? retryAt : job.next_at;
      store.webhooks.updateJob({ ...job, attempts: attempt, state, next_at, updated_at: now });
      if (state === 'failed') {
        const reason = `event ${event.id} failed all ${MAX_ATTEMPTS} attempts`;
        store.webhooks.setEnabled(webhook.id, false, reason, now);
      }
    });
  }

  /** POSTs the payload (documented form when served so), signed now over those exact bytes. */
  async send(
    webhook: WebhookRow,
    event: Pick<EventRow, 'id' | 'topic' | 'payload' | 'test'>,
    attempt: number,
    testDelivery: boolean,
  ) {
    const t = Math.floor(Date.now() / 1000);
    const body = webhookBody(this.ctx.shapes, event.topic, event.payload);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'Slabdesk-Sandbox-Webhooks/2026-07',
      'X-Service-Webhook-Signature': signatureHeader(webhook.secret, body, t),
      'X-Service-Webhook-Topic': event.topic,
      'X-Service-Webhook-Id': event.id,
      'X-Service-Webhook-Attempt': String(attempt),
      'X-Service-Api-Version': CURRENT_VERSION,
      'X-Service-Api-Mode': event.test === 1 ? 'test' : 'live',
    };
    if (testDelivery) headers['X-Service-Webhook-Test'] = 'true';
    // A timer we hold decides the timeout, and the answer races it: on Node 20 a fetch's abort
    // signal can be collected under GC pressure, and the delivery would then hang unrecorded.
    const deadline = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        deadline.abort();
        reject(new DeliveryTimeout());
      }, this.timeoutMs);
    });
    const stopOnClose = () => deadline.abort();
    this.abort.signal.addEventListener('abort', stopOnClose, { once: true });
    try {
      const answer = async () => {
        const response = await fetch(webhook.url, {
          method: 'POST',
          headers,
          body,
          redirect: 'manual',
          signal: deadline.signal,
        });
        await response.arrayBuffer().catch(() => undefined);
        return response;
      };
      const response = await Promise.race([answer(), timedOut]);
      return { status_code: response.status, error: null };
    } catch (error) {
      return {
        status_code: null,
        error:
          error instanceof DeliveryTimeout
            ? `no answer within ${this.timeoutMs / 1000} seconds`
            : `could not deliver: ${error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error)}`,
      };
    } finally {
      clearTimeout(timer);
      this.abort.signal.removeEventListener('abort', stopOnClose);
    }
  }
}

class DeliveryTimeout extends Error {}
