import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { refuse } from '../error-envelope';
import { compressByCall } from '../compress-reply';
import { reportBackgroundError } from '../hub/background-error';
import { isApiError } from '../../client';
import type { HubFeedFailure } from '../../client/hub-feed-answer';
import { decodeCursor, feedAnswer, feedBody, isOurs } from '../replica/replica-store';
import type { Replica } from '../replica/replica';
import { REPLICA_COLLECTIONS } from '../replica/replica-store';

/** Where the hub says what its replica holds: rows, change number, records set aside by id. */
const REPLICA_PATH = '/hub/replica';
/** The longest a browser asking again during the first fill waits for it to land. */
const FILLING_WAIT_MS = 1000;

/** Why the fill stopped, as the page names it: the marketplace's own code where it gave one. */
function failureOf(error: unknown): HubFeedFailure | null {
  if (error === undefined) return null;
  if (isApiError(error)) {
    const { status, code, message, requestId } = error;
    return { status, code, message, requestId: requestId ?? null };
  }
  const message =
    'This server could not read the store from the marketplace yet; it tries again shortly.';
  return { status: 502, code: 'replica_not_ready', requestId: null, message };
}

const FeedParams = z.object({ collection: z.enum(REPLICA_COLLECTIONS) });
const FeedQuery = z.object({
  cursor: z.string().max(512).optional(),
  fresh: z.literal('1').optional(),
});

/** The replica's status and change feed, for anyone signed in (no browser reads the collections). */
export const replicaRoutes: FastifyPluginAsyncZod<{ replica: Replica }> = async (
  app,
  { replica },
) => {
  await compressByCall(app);
  app.get(REPLICA_PATH, { config: { access: 'viewer' } }, async () => replica.status());
  app.get(
    `${REPLICA_PATH}/:collection`,
    {
      config: { access: 'viewer' },
      schema: { params: FeedParams, querystring: FeedQuery },
    },
    async (request, reply) => {
      const { collection } = request.params;
      const refusal = replica.refusal(collection);
      if (refusal) {
        // The marketplace's own refusal, as it gave it: the page names the scope and its request.
        return refuse(reply, refusal.status, refusal.code, refusal.message, {
          request_id: refusal.requestId ?? null,
        });
      }
      // The first read starts the fill where it waits for one (a server that fills when read).
      replica.begin();
      const sent = decodeCursor(request.query.cursor);
      const [fresh, filled] = [request.query.fresh === '1', replica.filled([collection])];
      if (!fresh && !filled && isOurs(replica.store, sent)) {
        // A browser asking again during the first fill: answered as the fill lands (a long poll).
        await replica.fillLanded(collection, FILLING_WAIT_MS);
      } else if (fresh && !filled && replica.fillFailure() !== undefined) {
        // The seller asks again after a fill stopped: it is tried now, not at its next turn.
        await replica.ready([collection], { retryNow: true }).catch(() => undefined);
      } else if (fresh && filled && !replica.webhooks() && collection !== 'locations') {
        // The newest with no webhook registered: one read for everyone asking at once.
        await replica.catchUp([collection]).catch((error: unknown) => {
          reportBackgroundError(`catching ${collection} up for a seller`, error);
        });
      }
      const body = feedBody(
        feedAnswer(replica.store, collection, sent, failureOf(replica.fillFailure())),
      );
      reply.type('application/json; charset=utf-8').header('vary', 'accept-encoding');
      return reply.compress(body);
    },
  );
};
