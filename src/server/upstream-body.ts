import type { IncomingMessage } from 'node:http';
import { pipeline } from 'node:stream/promises';
import type { Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

/** Thrown when an upstream body (unpacked) would pass the cap: the read stops there. */
export class UpstreamTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`The upstream's answer is larger than ${maxBytes} bytes`);
    this.name = 'UpstreamTooLargeError';
  }
}

const DECODERS: Record<string, () => Transform> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/** Whether the answer's `Content-Encoding` is one the body is unpacked from. */
export function isPacked(response: IncomingMessage): boolean {
  return String(response.headers['content-encoding'] ?? '').toLowerCase() in DECODERS;
}

/**
 * An upstream body read as it streams in, unpacked when packed, counted after unpacking: past
 * `maxBytes` the read stops and rejects with UpstreamTooLargeError, so neither a huge body nor a
 * small packed bomb is ever held whole. A declared length over the cap is refused before reading.
 */
export async function readUpstreamBody(
  response: IncomingMessage,
  maxBytes: number,
): Promise<Buffer> {
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    response.destroy();
    throw new UpstreamTooLargeError(maxBytes);
  }
  const encoding = String(response.headers['content-encoding'] ?? '').toLowerCase();
  const decoder = DECODERS[encoding]?.();
  const chunks: Buffer[] = [];
  let total = 0;
  // Kept aside: the pipeline reports a stop from inside as an abort, not as this error.
  let tooLarge: UpstreamTooLargeError | undefined;
  const collect = async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source) {
      total += chunk.length;
      if (total > maxBytes) throw (tooLarge = new UpstreamTooLargeError(maxBytes));
      chunks.push(chunk);
    }
  };
  try {
    if (decoder) await pipeline(response, decoder, collect);
    else await pipeline(response, collect);
  } catch (error) {
    throw tooLarge ?? error;
  }
  return Buffer.concat(chunks, total);
}
