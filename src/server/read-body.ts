import type { IncomingMessage } from 'node:http';
type BoundedBody =
  { ok: true; body: Buffer } | { ok: false; reason: 'too_large' | 'too_slow' | 'cut_off' };

/** A stranger's body, whole within `deadlineMs` unless `cutOff` ends it; never throws. */
export function readBodyWithin(
  request: IncomingMessage,
  limits: { maxBytes: number; deadlineMs: number },
  cutOff?: AbortSignal,
): Promise<BoundedBody> {
  if (Number(request.headers['content-length'] ?? 0) > limits.maxBytes) {
    return Promise.resolve({ ok: false, reason: 'too_large' });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (result: BoundedBody) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      cutOff?.removeEventListener('abort', onCutOff);
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onGone);
      request.off('close', onGone);
      // What is left unread is not kept: the caller answers and closes the connection.
      if (!result.ok) request.pause();
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limits.maxBytes) return finish({ ok: false, reason: 'too_large' });
      chunks.push(chunk);
    };
    const onEnd = () => finish({ ok: true, body: Buffer.concat(chunks) });
    const onGone = () => finish({ ok: false, reason: 'cut_off' });
    const onCutOff = () => finish({ ok: false, reason: 'cut_off' });
    const timer = setTimeout(() => finish({ ok: false, reason: 'too_slow' }), limits.deadlineMs);
    timer.unref?.();
    if (cutOff?.aborted) return onCutOff();
    cutOff?.addEventListener('abort', onCutOff);
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', onGone);
    request.on('close', onGone);
  });
}
