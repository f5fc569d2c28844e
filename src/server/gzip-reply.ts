import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/**
 * `reply.compress` in this scope (gzip from 1 KiB, level 6) for every browser that takes it, on
 * this machine too: a phone's Lighthouse run over loopback weighs the bytes as a mobile network would.
 */
export const gzipByCall = (app: FastifyInstance) =>
  app.register(compress, { global: false, globalDecompression: false, encodings: ['gzip'] });
