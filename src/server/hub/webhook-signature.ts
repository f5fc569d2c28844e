import { createHmac, timingSafeEqual } from 'node:crypto';

/** A signature timestamp further than this from the receiver's clock is refused (the spec's hour). */
export const MAX_SIGNATURE_AGE_SECONDS = 3600;

type HeaderRefusal = 'missing_signature' | 'malformed_signature' | 'stale_timestamp';

export type SignatureVerdict =
  { ok: true; timestamp: number } | { ok: false; reason: HeaderRefusal | 'bad_signature' };

export type SignatureHeader =
  { ok: true; timestamp: number; given: Buffer[] } | { ok: false; reason: HeaderRefusal };

/**
 * Reads `X-Service-Webhook-Signature` (`t=<unix>,v1=<hex>`) without the body, so a post that
 * cannot be a delivery is refused before its body is read.
 */
export function readSignatureHeader(
  header: string | undefined,
  nowSeconds: number,
): SignatureHeader {
  if (!header) return { ok: false, reason: 'missing_signature' };
  let t: number | undefined;
  const given: Buffer[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (name === 't' && /^\d{1,12}$/.test(value)) t = Number(value);
    if (name === 'v1' && /^[0-9a-f]{64}$/i.test(value)) given.push(Buffer.from(value, 'hex'));
  }
  if (t === undefined || given.length === 0) return { ok: false, reason: 'malformed_signature' };
  if (Math.abs(nowSeconds - t) > MAX_SIGNATURE_AGE_SECONDS) {
    return { ok: false, reason: 'stale_timestamp' };
  }
  return { ok: true, timestamp: t, given };
}

/** HMAC-SHA256 of `<t>.<raw body>` with the current or previous secret, in constant time. */
export function signatureMatches(
  header: { timestamp: number; given: readonly Buffer[] },
  raw: Buffer,
  secrets: readonly string[],
): boolean {
  const signed = Buffer.concat([Buffer.from(`${header.timestamp}.`), raw]);
  for (const secret of secrets) {
    if (!secret) continue;
    const expected = createHmac('sha256', secret).update(signed).digest();
    if (header.given.some((v1) => timingSafeEqual(v1, expected))) return true;
  }
  return false;
}

/** The whole check: the header read, then the body's HMAC; `t` within an hour. */
export function verifyWebhookSignature(
  header: string | undefined,
  raw: Buffer,
  secrets: readonly string[],
  nowSeconds: number,
): SignatureVerdict {
  const read = readSignatureHeader(header, nowSeconds);
  if (!read.ok) return read;
  return signatureMatches(read, raw, secrets)
    ? { ok: true, timestamp: read.timestamp }
    : { ok: false, reason: 'bad_signature' };
}
