import type { IncomingMessage } from 'node:http';
import { MAX_BODY_BYTES } from '../sandbox/platform/spec-limits';

/** A request's raw body, or null as soon as it is over `maxBytes`; nothing past the cap is kept. */
export async function readBody(
  request: IncomingMessage,
  maxBytes = MAX_BODY_BYTES,
): Promise<Buffer | null> {
  if (Number(request.headers['content-length'] ?? 0) > maxBytes) return null;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > maxBytes) return null;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}
