import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import { errorEnvelope } from './error-envelope';

/** A refusal of one of the hub's own JSON routes, in the API's envelope and never cached. */
export function refuse(
  reply: FastifyReply,
  status: number,
  code: string,
  message: string,
  extra: Record<string, unknown> = {},
) {
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .send(errorEnvelope(code, message, extra));
}

/** A zod failure as a 422 naming each field, as the marketplace answers a bad write. */
export function refuseFields(reply: FastifyReply, error: z.ZodError) {
  const fields: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const field = issue.path.join('.') || 'body';
    (fields[field] ??= []).push(issue.message);
  }
  return reply
    .code(422)
    .header('cache-control', 'no-store')
    .send(errorEnvelope('validation_error', fields));
}
