import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/**
 * `reply.compress` in this scope (gzip from 1 KiB, level 6) for every browser that takes it, on
 * this machine too: a phone's Lighthouse run over loopback weighs the bytes as a mobile network would.
 */
export const gzipByCall = (app: FastifyInstance) =>
  app.register(compress, {
    global: false,
    globalDecompression: false,
    encodings: ['gzip'],
    // A page of thousands of rows in a few rounds of the event loop, not one per 16 KiB: a busy
    // loop (a replica's first fill) held each round, and the answer trickled out for a second.
    zlibOptions: { chunkSize: 256 * 1024 },
  });
