import type { IncomingMessage } from 'node:http';

/** The sign-in and sign-out forms are small: anything longer is not theirs. */
const MAX_FORM_BYTES = 8 * 1024;

/** A request's urlencoded form fields, or null for another type or a body too long. */
export async function readForm(request: IncomingMessage): Promise<URLSearchParams | null> {
  const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (Number(request.headers['content-length'] ?? 0) > MAX_FORM_BYTES) return null;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_FORM_BYTES) return null;
    chunks.push(chunk as Buffer);
  }
  if (size === 0) return new URLSearchParams();
  if (type !== 'application/x-www-form-urlencoded') return null;
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}
