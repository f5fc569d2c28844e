import { createHmac, timingSafeEqual } from 'node:crypto';

/** A signature timestamp further than this from the receiver's clock is refused (the spec's hour). */
export const MAX_SIGNATURE_AGE_SECONDS = 3600;

export type SignatureVerdict =
  | { ok: true; timestamp: number }
  | {
      ok: false;
      reason: 'missing_signature' | 'malformed_signature' | 'stale_timestamp' | 'bad_signature';
    };

/**
 * Checks `X-Service-Webhook-Signature` (`t=<unix>,v1=<hex>`): HMAC-SHA256 of `<t>.<raw body>` with
 * the current or previous secret, in constant time, and `t` within an hour.
 */
export function verifyWebhookSignature(
  header: string | undefined,
  raw: Buffer,
  secrets: readonly string[],
  nowSeconds: number,
): SignatureVerdict {
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
  const signed = Buffer.concat([Buffer.from(`${t}.`), raw]);
  for (const secret of secrets) {
    if (!secret) continue;
    const expected = createHmac('sha256', secret).update(signed).digest();
    if (given.some((v1) => timingSafeEqual(v1, expected))) return { ok: true, timestamp: t };
  }
  return { ok: false, reason: 'bad_signature' };
}
