import type { IncomingMessage } from 'node:http';

/**
 * Reads a request's whole body and puts it back for the next reader (the proxy); null when over
 * `maxBytes` (the stream is left half read: answer and close the connection). Chunks are read by
 * exact length and put back before the stream can end: a reader after that would wait for ever.
 */
export function peekBody(request: IncomingMessage, maxBytes: number): Promise<Buffer | null> {
  const length = request.headers['content-length'];
  const declared = length === undefined ? undefined : Number(length);
  if (declared !== undefined && declared > maxBytes) return Promise.resolve(null);
  // No body at all: nothing to read, and listening would end the stream for the next reader.
  if (declared === 0 || (declared === undefined && !request.headers['transfer-encoding'])) {
    return Promise.resolve(Buffer.alloc(0));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      request.off('readable', onReadable);
      request.off('error', onError);
    };
    const onError = (error: Error) => {
      stop();
      reject(error);
    };
    const onReadable = () => {
      while (request.readableLength > 0) {
        const chunk = request.read(request.readableLength) as Buffer | null;
        if (chunk === null) break;
        chunks.push(chunk);
        size += chunk.length;
        if (size > maxBytes) {
          stop();
          resolve(null);
          return;
        }
      }
      if (!request.complete) return;
      stop();
      const body = Buffer.concat(chunks);
      if (body.length > 0) request.unshift(body);
      resolve(body);
    };
    request.on('readable', onReadable);
    request.on('error', onError);
  });
}
