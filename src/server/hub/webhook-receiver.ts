import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HubLogEntry, HubWebhookEvent } from '../../client/hub-messages';
import { MAX_BODY_BYTES } from '../../shared/spec-limits';
import { parseJsonBody } from '../../shared/json-body';
import { readBodyWithin } from '../read-body';
import { headerOf } from '../request-url';
import type { DeliveryLedger } from './delivery-ledger';
import { reportBackgroundError } from './background-error';
import type { Slots } from './slots';

/** The server's path for the API's webhook deliveries (register `{server}/hub/webhooks`). */
export const WEBHOOK_PATH = '/hub/webhooks';
/** A delivery is one resource: the spec bounds a body at its request cap and names no other. */
export const MAX_DELIVERY_BYTES = MAX_BODY_BYTES;
/** A delivery's body arrives at once; one still coming after this is a slow upload, cut off. */
export const DELIVERY_BODY_DEADLINE_MS = 5_000;
/** Strangers' bodies read at once (each up to MAX_DELIVERY_BYTES), on every port together. */
export const MAX_DELIVERY_READS = 8;
/** A signature timestamp further than this from our clock is refused (the spec's hour). */
const MAX_SIGNATURE_AGE_SECONDS = 3600;
/** An answered connection that still sends is dropped after this. */
const CLOSE_GRACE_MS = 1_000;
/** A verified body up to this size stays in the log (the view names the card after a reload). */
const LOGGED_PAYLOAD_BYTES = 16 * 1024;

/** What a delivery is checked against and told to: the hub. */
interface ReceiverDeps {
  /** The endpoint's signing secrets: the current one first, then the previous during a rotation. */
  secrets(): readonly string[];
  ledger: DeliveryLedger;
  reads: Slots<AbortController>;
  countRejected(reason: string): void;
  record(entry: HubLogEntry): void;
  publishWebhook(event: HubWebhookEvent): void;
  /** Told each verified delivery that is not a test (the replica applies it). */
  delivered(topic: string, payload: unknown): void;
}

/** Reads `X-Service-Webhook-Signature` (`t=<unix>,v1=<hex>`), or why a post is refused unread. */
function readSignatureHeader(header: string | undefined, nowSeconds: number) {
  if (!header) return 'missing_signature';
  let timestamp: number | undefined;
  const given: Buffer[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const [name, value] = [part.slice(0, eq).trim(), part.slice(eq + 1).trim()];
    if (name === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    if (name === 'v1' && /^[0-9a-f]{64}$/i.test(value)) given.push(Buffer.from(value, 'hex'));
  }
  if (timestamp === undefined || given.length === 0) return 'malformed_signature';
  if (Math.abs(nowSeconds - timestamp) > MAX_SIGNATURE_AGE_SECONDS) return 'stale_timestamp';
  return { timestamp, given };
}

const signedBytes = (timestamp: number, raw: Buffer) =>
  Buffer.concat([Buffer.from(`${timestamp}.`), raw]);

/** HMAC-SHA256 of `<t>.<raw body>` with the current or previous secret, in constant time. */
function signatureMatches(
  header: { timestamp: number; given: readonly Buffer[] },
  raw: Buffer,
  secrets: readonly string[],
): boolean {
  const signed = signedBytes(header.timestamp, raw);
  return secrets.some((secret) => {
    if (!secret) return false;
    const expected = createHmac('sha256', secret).update(signed).digest();
    return header.given.some((v1) => timingSafeEqual(v1, expected));
  });
}

function answer(response: ServerResponse, status: number, body: Record<string, unknown>): void {
  if (response.headersSent || response.destroyed) return;
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
  });
  response.end(JSON.stringify(body));
}

const digest = (bytes: Buffer) => createHash('sha256').update(bytes).digest('base64url');

// One delivery: signature header, body in a slot by a deadline, signature, parse, ledger, apply,
// claim; synchronous after the read, so two copies cannot both pass the lookup. Refusals before
// verification are only counted; a verified one that fails is answered 500 unclaimed (retried).
export async function receiveWebhook(
  request: IncomingMessage,
  response: ServerResponse,
  deps: ReceiverDeps,
): Promise<void> {
  const at = new Date();
  const refuse = (status: number, reason: string, headers: Record<string, string> = {}) => {
    deps.countRejected(reason);
    for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
    answer(response, status, { error: reason });
  };
  /** A refusal before the body was read: the connection closes; a sender going on is dropped. */
  const refuseUnread = (status: number, reason: string, headers: Record<string, string> = {}) => {
    if (!response.headersSent) response.setHeader('connection', 'close');
    response.once('finish', () =>
      setTimeout(() => request.socket.destroy(), CLOSE_GRACE_MS).unref(),
    );
    refuse(status, reason, headers);
  };
  if (request.method !== 'POST') return refuseUnread(405, 'method_not_allowed');
  const secrets = deps.secrets();
  if (secrets.length === 0) return refuseUnread(503, 'no_signing_secret', { 'retry-after': '60' });
  const signature = headerOf(request, 'x-service-webhook-signature');
  const header = readSignatureHeader(signature, Math.floor(at.getTime() / 1000));
  if (typeof header === 'string') return refuseUnread(401, header);

  // Full, the oldest read is cut off: a real delivery sends its body at once, a slow upload loses.
  const slot = new AbortController();
  deps.reads.take(slot);
  const limits = { maxBytes: MAX_DELIVERY_BYTES, deadlineMs: DELIVERY_BODY_DEADLINE_MS };
  const read = await readBodyWithin(request, limits, slot.signal).finally(() =>
    deps.reads.release(slot),
  );
  if (!read.ok) {
    if (read.reason === 'too_large') return refuseUnread(413, 'body_too_large');
    // Cut off for a newer read, or too slow: the API retries a real one, with backoff.
    const reason = read.reason === 'too_slow' ? 'body_too_slow' : 'body_cut_off';
    return refuseUnread(408, reason, { 'retry-after': '5' });
  }
  const raw = read.body;
  if (!signatureMatches(header, raw, secrets)) return refuse(401, 'bad_signature');

  // Verified: what the headers say may be logged from here on.
  const topic = headerOf(request, 'x-service-webhook-topic');
  const eventId = headerOf(request, 'x-service-webhook-id');
  const attempt = Number(headerOf(request, 'x-service-webhook-attempt')) || undefined;
  let payload: unknown;
  // What is unknown stays undefined: the log's JSON leaves it out.
  const log = (outcome: HubLogEntry['outcome'], reason?: string) =>
    deps.record({ at: at.toISOString(), outcome, topic, eventId, attempt, reason, payload });
  const refuseVerified = (status: number, reason: string) => {
    deps.countRejected(reason);
    log('rejected', reason);
    answer(response, status, { error: reason });
  };
  if (!topic || !eventId || !/^evt_[A-Za-z0-9_-]{1,100}$/.test(eventId)) {
    return refuseVerified(400, 'missing_topic_or_id');
  }
  const parsed = parseJsonBody(raw.toString('utf8'));
  if (parsed.kind === 'too_deep') return refuseVerified(422, 'too_deep');
  if (parsed.kind !== 'json') return refuseVerified(400, 'invalid_json');
  if (raw.length <= LOGGED_PAYLOAD_BYTES) payload = parsed.value;

  // The signature covers the body alone, not the id or the test header: a body seen before is the
  // same snapshot again, whatever id it comes under, and one first seen as a test stays a sample.
  const entry = {
    eventId,
    topic,
    signature: digest(signedBytes(header.timestamp, raw)),
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
    // A test button's sample: shown as a test, never applied, recorded so it never comes back real.
    const receivedAt = at.toISOString();
    deps.publishWebhook({ eventId, topic, receivedAt, test: entry.test, payload: parsed.value });
    if (!entry.test) deps.delivered(topic, parsed.value);
    deps.ledger.claim(entry, at);
  } catch (error) {
    reportBackgroundError(`applying webhook ${eventId}`, error);
    return refuseVerified(500, 'apply_failed');
  }
  answer(response, 200, { ok: true });
  log('applied', entry.test ? 'test delivery' : undefined);
}
