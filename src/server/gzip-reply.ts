import compress from '@fastify/compress';
import type { FastifyInstance, FastifyRequest } from 'fastify';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** Whether the browser is on this machine: over loopback packing only costs both ends CPU. */
export const fromThisMachine = (request: FastifyRequest) =>
  LOOPBACK.has(request.socket.remoteAddress ?? '');

/** `reply.compress` in this scope (gzip from 1 KiB, level 6), for the routes that choose per call. */
export const gzipByCall = (app: FastifyInstance) =>
  app.register(compress, { global: false, globalDecompression: false, encodings: ['gzip'] });
