import type { FastifyInstance } from 'fastify';
import { parseJsonBody } from '../../shared/json-body';

/** JSON bodies parsed with a bound on nesting; an empty one is none (a button's POST). */
export function jsonBody(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, text, done) => {
    const read = parseJsonBody(String(text));
    if (read.kind === 'empty') return done(null, undefined);
    if (read.kind === 'json') return done(null, read.value);
    const error = Object.assign(new Error('The body is not JSON this server reads.'), {
      statusCode: 400,
      code: 'invalid_json',
    });
    done(error, undefined);
  });
}
