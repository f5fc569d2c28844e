import type { onRequestAsyncHookHandler } from 'fastify';

/** A plugin's answers are the seller's own: no cache keeps them (`app.addHook('onRequest', noStore)`). */
export const noStore: onRequestAsyncHookHandler = async (_request, reply) => {
  reply.header('cache-control', 'no-store');
};
