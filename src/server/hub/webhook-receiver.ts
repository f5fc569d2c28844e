import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MAX_BODY_BYTES } from '../../sandbox/platform/spec-limits';
import { MAX_JSON_DEPTH, parseBoundedJson } from '../bounded-json';
import { readBody } from '../read-body';
import type { DeliveryLedger } from './delivery-ledger';
import { reportBackgroundError, type EventHub } from './event-hub';
import { verifyWebhookSignature } from './webhook-signature';

/** The server's path for the API's webhook deliveries (register `{server}/hub/webhooks`). */
export const WEBHOOK_PATH = '/hub/webhooks';
/** A delivery is one resource: the API's own cap on a body bounds it. */
export const MAX_DELIVERY_BYTES = MAX_BODY_BYTES;

export interface ReceiverDeps {
  /** The endpoint's signing secrets: the current one first, then the previous during a rotation. */
  secrets(): readonly string[];
  ledger: DeliveryLedger;
  hub: EventHub;
  now?: () => number;
}

function answer(response: ServerResponse, status: number, body: Record<string, unknown>): void {
  if (response.headersSent) return;
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
  });
  response.end(JSON.stringify(body));
}

const headerOf = (request: IncomingMessage, name: string): string | undefined => {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * One delivery: signature over the raw bytes, bounded parse, ledger lookup by id and bytes, apply,
 * claim, 200. Refusals before verification are only counted (their headers are anybody's words); a
 * verified delivery that fails is answered 500 unclaimed so the API retries. Synchronous after the
 * read, so two copies cannot both pass the lookup.
 */
export async function receiveWebhook(
  request: IncomingMessage,
  response: ServerResponse,
  deps: ReceiverDeps,
): Promise<void> {
  const at = new Date(deps.now?.() ?? Date.now());
  const refuse = (status: number, reason: string) => {
    deps.hub.countRejected(reason);
    answer(response, status, { error: reason });
  };
  if (request.method !== 'POST') return refuse(405, 'method_not_allowed');
  const raw = await readBody(request, MAX_DELIVERY_BYTES);
  if (raw === null) return refuse(413, 'body_too_large');
  const secrets = deps.secrets();
  if (secrets.length === 0) return refuse(503, 'no_signing_secret');
  const verdict = verifyWebhookSignature(
    headerOf(request, 'x-service-webhook-signature'),
    raw,
    secrets,
    Math.floor(at.getTime() / 1000),
  );
  if (!verdict.ok) return refuse(401, verdict.reason);

  // Verified: what the headers say may be logged from here on.
  const topic = headerOf(request, 'x-service-webhook-topic');
  const eventId = headerOf(request, 'x-service-webhook-id');
  const attempt = Number(headerOf(request, 'x-service-webhook-attempt')) || undefined;
  const log = (outcome: 'applied' | 'duplicate' | 'rejected', reason?: string) =>
    deps.hub.record({
      at: at.toISOString(),
      outcome,
      topic,
      eventId,
      attempt,
      ...(reason ? { reason } : {}),
    });
  const refuseVerified = (status: number, reason: string) => {
    deps.hub.countRejected(reason);
    log('rejected', reason);
    answer(response, status, { error: reason });
  };
  if (!topic || !eventId || !/^evt_[A-Za-z0-9_-]{1,100}$/.test(eventId)) {
    return refuseVerified(400, 'missing_topic_or_id');
  }
  const parsed = parseBoundedJson(raw.toString('utf8'), MAX_JSON_DEPTH);
  if (!parsed.ok) return refuseVerified(parsed.reason === 'too_deep' ? 422 : 400, parsed.reason);

  // The signed bytes themselves: a replay under a new id carries the same ones.
  const signature = createHash('sha256')
    .update(`${verdict.timestamp}.`)
    .update(raw)
    .digest('base64url');
  const test = headerOf(request, 'x-service-webhook-test') === 'true';
  try {
    // Test-button deliveries carry a sample resource: shown in the events view, never applied,
    // never claimed.
    if (!test && deps.ledger.seen(eventId, signature)) {
      answer(response, 200, { ok: true, duplicate: true });
      log('duplicate');
      return;
    }
    deps.hub.publishWebhook({
      eventId,
      topic,
      receivedAt: at.toISOString(),
      test,
      payload: parsed.value,
    });
    if (!test) deps.ledger.claim(eventId, signature, topic, at);
  } catch (error) {
    reportBackgroundError(`applying webhook ${eventId}`, error);
    return refuseVerified(500, 'apply_failed');
  }
  answer(response, 200, { ok: true });
  log('applied', test ? 'test delivery' : undefined);
}
