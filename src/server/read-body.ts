import { on } from 'node:events';
import type { IncomingMessage } from 'node:http';

type BoundedBody =
  { ok: true; body: Buffer } | { ok: false; reason: 'too_large' | 'too_slow' | 'cut_off' };

/** A stranger's body, whole within `deadlineMs` unless `cutOff` ends it; never throws. */
export async function readBodyWithin(
  request: IncomingMessage,
  limits: { maxBytes: number; deadlineMs: number },
  cutOff?: AbortSignal,
): Promise<BoundedBody> {
  if (Number(request.headers['content-length'] ?? 0) > limits.maxBytes) {
    return { ok: false, reason: 'too_large' };
  }
  const deadline = AbortSignal.timeout(limits.deadlineMs);
  const signal = cutOff ? AbortSignal.any([deadline, cutOff]) : deadline;
  const chunks: Buffer[] = [];
  let size = 0;
  let result: BoundedBody;
  try {
    const data = on(request, 'data', { signal, close: ['end', 'close'] });
    for await (const [chunk] of data as AsyncIterable<[Buffer]>) {
      size += chunk.length;
      if (size > limits.maxBytes) break;
      chunks.push(chunk);
    }
    if (size > limits.maxBytes) result = { ok: false, reason: 'too_large' };
    else if (request.complete) result = { ok: true, body: Buffer.concat(chunks) };
    else result = { ok: false, reason: 'cut_off' };
  } catch {
    // Aborted (the deadline, or a newer read), or the connection failed.
    result = { ok: false, reason: deadline.aborted ? 'too_slow' : 'cut_off' };
  }
  // What is left unread is not kept: the caller answers and closes the connection.
  if (!result.ok) request.pause();
  return result;
}
