import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DeliveryLedger } from './delivery-ledger';
import type { EventHub } from './event-hub';
import { readBody } from '../read-body';
import { verifyWebhookSignature } from './webhook-signature';

/** The server's path for the API's webhook deliveries (register `{server}/hub/webhooks`). */
export const WEBHOOK_PATH = '/hub/webhooks';

export interface ReceiverDeps {
  /** The endpoint's signing secrets: the current one first, then the previous during a rotation. */
  secrets(): readonly string[];
  ledger: DeliveryLedger;
  hub: EventHub;
  now?: () => number;
}

function answer(response: ServerResponse, status: number, body: Record<string, unknown>): void {
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
 * One webhook delivery: the signature is checked over the exact raw bytes (current or previous
 * secret, timestamp within an hour), the event id is claimed in the durable ledger, and the
 * answer (2xx) goes out before anything is done with the payload. A refused delivery (401, 400,
 * 413) changes nothing; a delivery whose id was accepted before is answered 200 and not applied
 * again, so the API stops retrying it.
 */
export async function receiveWebhook(
  request: IncomingMessage,
  response: ServerResponse,
  deps: ReceiverDeps,
): Promise<void> {
  const topic = headerOf(request, 'x-service-webhook-topic');
  const eventId = headerOf(request, 'x-service-webhook-id');
  const attempt = Number(headerOf(request, 'x-service-webhook-attempt')) || undefined;
  const at = new Date(deps.now?.() ?? Date.now());
  const reject = (status: number, reason: string) => {
    deps.hub.record({ at: at.toISOString(), outcome: 'rejected', topic, eventId, reason, attempt });
    answer(response, status, { error: reason });
  };
  if (request.method !== 'POST') return reject(405, 'method_not_allowed');
  const raw = await readBody(request);
  if (raw === null) return reject(413, 'body_too_large');
  const secrets = deps.secrets();
  if (secrets.length === 0) return reject(503, 'no_signing_secret');
  const verdict = verifyWebhookSignature(
    headerOf(request, 'x-service-webhook-signature'),
    raw,
    secrets,
    Math.floor(at.getTime() / 1000),
  );
  if (!verdict.ok) return reject(401, verdict.reason);
  if (!topic || !eventId || !/^evt_[A-Za-z0-9_-]{1,100}$/.test(eventId)) {
    return reject(400, 'missing_topic_or_id');
  }
  let payload: unknown;
  try {
    payload = JSON.parse(raw.toString('utf8'));
  } catch {
    return reject(400, 'invalid_json');
  }
  const test = headerOf(request, 'x-service-webhook-test') === 'true';
  // Test-button deliveries carry a sample resource: shown in the events view, never applied.
  const first = test || deps.ledger.claim(eventId, topic, at);
  answer(response, 200, first ? { ok: true } : { ok: true, duplicate: true });
  deps.hub.record({
    at: at.toISOString(),
    outcome: first ? 'applied' : 'duplicate',
    topic,
    eventId,
    attempt,
    ...(test ? { reason: 'test delivery' } : {}),
  });
  if (!first) return;
  // The work comes after the answer.
  setImmediate(() =>
    deps.hub.publishWebhook({ eventId, topic, receivedAt: at.toISOString(), test, payload }),
  );
}
