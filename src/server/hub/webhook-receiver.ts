import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MAX_BODY_BYTES } from '../../shared/spec-limits';
import { MAX_JSON_DEPTH, parseBoundedJson } from '../bounded-json';
import { readBodyWithin } from '../read-body';
import type { BodyReadSlots } from './body-read-slots';
import type { DeliveryLedger } from './delivery-ledger';
import { reportBackgroundError } from './background-error';
import type { EventHub } from './event-hub';
import { readSignatureHeader, signatureMatches } from './webhook-signature';

/** The server's path for the API's webhook deliveries (register `{server}/hub/webhooks`). */
export const WEBHOOK_PATH = '/hub/webhooks';
/** A delivery is one resource: the spec bounds a body at its request cap and names no other. */
export const MAX_DELIVERY_BYTES = MAX_BODY_BYTES;
/** A delivery's body arrives at once; one still coming after this is a slow upload, cut off. */
export const DELIVERY_BODY_DEADLINE_MS = 5_000;
/** Strangers' bodies read at once (each up to MAX_DELIVERY_BYTES), on every port together. */
export const MAX_DELIVERY_READS = 8;
/** An answered connection that still sends is dropped after this. */
const CLOSE_GRACE_MS = 1_000;
/** A verified body up to this size stays in the events log, so the view still names the card after a reload. */
const LOGGED_PAYLOAD_BYTES = 16 * 1024;

export interface ReceiverDeps {
  /** The endpoint's signing secrets: the current one first, then the previous during a rotation. */
  secrets(): readonly string[];
  ledger: DeliveryLedger;
  hub: EventHub;
  /** The slots for reading bodies, shared by every port that takes deliveries. */
  reads: BodyReadSlots;
  /** Told each verified delivery that is not a test (the replica applies it). */
  onDelivery?: (topic: string, payload: unknown) => void;
  now?: () => number;
}

function answer(response: ServerResponse, status: number, body: Record<string, unknown>): void {
  if (response.headersSent || response.destroyed) return;
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
  });
  response.end(JSON.stringify(body));
}

/**
 * An answer sent before the body was read whole: the connection closes after it, so no next
 * request follows unread bytes, and a sender that goes on sending is dropped soon after.
 */
function closeAfterAnswer(request: IncomingMessage, response: ServerResponse): void {
  const socket = request.socket;
  if (!response.headersSent) response.setHeader('connection', 'close');
  response.once('finish', () => {
    const timer = setTimeout(() => socket.destroy(), CLOSE_GRACE_MS);
    timer.unref?.();
  });
}

const headerOf = (request: IncomingMessage, name: string): string | undefined => {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

const digest = (...parts: (string | Buffer)[]) => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest('base64url');
};

/**
 * One delivery: the signature header checked before the body is read, the body read in a slot and
 * by a deadline, signature over the raw bytes, bounded parse, ledger lookup by id, signed bytes and
 * body, apply, claim, 200. Refusals before verification are only counted (their headers are
 * anybody's words); a verified delivery that fails is answered 500 unclaimed so the API retries.
 * Synchronous after the read, so two copies cannot both pass the lookup.
 */
export async function receiveWebhook(
  request: IncomingMessage,
  response: ServerResponse,
  deps: ReceiverDeps,
): Promise<void> {
  const at = new Date(deps.now?.() ?? Date.now());
  const refuse = (status: number, reason: string, headers: Record<string, string> = {}) => {
    deps.hub.countRejected(reason);
    for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
    answer(response, status, { error: reason });
  };
  /** A refusal before the body was read: the connection goes with it. */
  const refuseUnread = (status: number, reason: string, headers: Record<string, string> = {}) => {
    closeAfterAnswer(request, response);
    refuse(status, reason, headers);
  };
  if (request.method !== 'POST') return refuseUnread(405, 'method_not_allowed');
  const secrets = deps.secrets();
  if (secrets.length === 0) return refuseUnread(503, 'no_signing_secret', { 'retry-after': '60' });
  const header = readSignatureHeader(
    headerOf(request, 'x-service-webhook-signature'),
    Math.floor(at.getTime() / 1000),
  );
  if (!header.ok) return refuseUnread(401, header.reason);

  const slot = deps.reads.take();
  const read = await readBodyWithin(
    request,
    { maxBytes: MAX_DELIVERY_BYTES, deadlineMs: DELIVERY_BODY_DEADLINE_MS },
    slot.signal,
  ).finally(slot.release);
  if (!read.ok) {
    if (read.reason === 'too_large') return refuseUnread(413, 'body_too_large');
    // Cut off for a newer read, or too slow: the API retries a real one, with backoff.
    return refuseUnread(408, read.reason === 'too_slow' ? 'body_too_slow' : 'body_cut_off', {
      'retry-after': '5',
    });
  }
  const raw = read.body;
  if (!signatureMatches(header, raw, secrets)) return refuse(401, 'bad_signature');

  // Verified: what the headers say may be logged from here on.
  const topic = headerOf(request, 'x-service-webhook-topic');
  const eventId = headerOf(request, 'x-service-webhook-id');
  const attempt = Number(headerOf(request, 'x-service-webhook-attempt')) || undefined;
  let logged: unknown;
  const log = (outcome: 'applied' | 'duplicate' | 'rejected', reason?: string) =>
    deps.hub.record({
      at: at.toISOString(),
      outcome,
      topic,
      eventId,
      attempt,
      ...(reason ? { reason } : {}),
      ...(logged === undefined ? {} : { payload: logged }),
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
  if (raw.length <= LOGGED_PAYLOAD_BYTES) logged = parsed.value;

  // The signature covers the body alone, not the id or the test header: a body seen before is the
  // same snapshot again, whatever id it comes under, and one first seen as a test stays a sample.
  const entry = {
    eventId,
    topic,
    signature: digest(`${header.timestamp}.`, raw),
    bodyDigest: digest(raw),
    test: headerOf(request, 'x-service-webhook-test') === 'true',
  };
  try {
    const known = deps.ledger.find(entry.eventId, entry.signature, entry.bodyDigest);
    if (known && !entry.test) {
      // Deduplicated as the spec asks: a 2xx, so the API stops retrying, and nothing applied.
      answer(response, 200, { ok: true, duplicate: true });
      log('duplicate', known.test ? 'a test delivery sent again as real' : undefined);
      return;
    }
    // Test-button deliveries carry a sample resource: shown in the events view as a test, never
    // applied, and recorded so their bytes can never come back as real.
    deps.hub.publishWebhook({
      eventId,
      topic,
      receivedAt: at.toISOString(),
      test: entry.test,
      payload: parsed.value,
    });
    if (!entry.test) deps.onDelivery?.(topic, parsed.value);
    deps.ledger.claim(entry, at);
  } catch (error) {
    reportBackgroundError(`applying webhook ${eventId}`, error);
    return refuseVerified(500, 'apply_failed');
  }
  answer(response, 200, { ok: true });
  log('applied', entry.test ? 'test delivery' : undefined);
}
