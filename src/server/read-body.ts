import type { IncomingMessage } from 'node:http';
import { MAX_BODY_BYTES } from '../sandbox/platform/spec-limits';

/**
 * A request's raw body, or null as soon as it is over the spec's cap (`Content-Length` or bytes
 * read): the proxy's forwarded bodies and the webhook receiver's signed ones alike.
 */
export async function readBody(request: IncomingMessage): Promise<Buffer | null> {
  if (Number(request.headers['content-length'] ?? 0) > MAX_BODY_BYTES) return null;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}
