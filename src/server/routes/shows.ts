import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorName } from '../auth/roles';
import { refuse } from '../error-envelope';
import { paidWords, totalsOf } from '../../shared/show-tenders';
import { Key, NewEntry, NewShow, Optional, Text } from '../../shared/show-bodies';
import { dayWords, showCsv } from '../shows/show-csv';
import { knownZone } from '../../shared/delimited';
import { SOLD_BEFORE } from '../../shared/show-ledger';
import type { ShowStore } from '../shows/show-store';

const BODY_LIMIT = 16 * 1024;

/** An undo's body is optional (a button's POST): no reason given. */
const VoidBody = z.strictObject({ reason: Optional(300) }).default({ reason: null });
const EntryParams = z.object({ key: Key, entry: Key });
const CaseBody = z.strictObject({ listingIds: z.array(Text(120)).max(2_000) });
const ShowParams = z.object({ key: Key });
const Limit = z.object({ limit: z.coerce.number().int().min(1).max(500).default(100) });
const SaleQuery = z.object({ listing: Text(120) });
/** The seller's time zone for the CSV's times (the browser's, e.g. America/New_York). */
const CsvQuery = z.object({ tz: z.string().max(64).optional() });

const READ = { access: 'viewer' } as const;
const RECORD = { access: 'editor', action: 'record sales' } as const;
const UNDO = { access: 'editor', action: 'undo sales' } as const;

/** The show ledger's routes under `/hub/shows`: viewers read, editors and owners record. */
export const showRoutes: FastifyPluginAsyncZod<{
  store: ShowStore | undefined;
  /** The case's listings as the replica holds them (the page draws the case before the catalogue). */
  caseListings?: (ids: readonly string[]) => Record<string, unknown>[];
  now?: () => Date;
}> = async (app, deps) => {
  const now = () => (deps.now?.() ?? new Date()).toISOString();
  // Who may use each route is in its config (the gate decides before this hook runs).
  app.addHook('onRequest', async (_request, reply) => {
    if (!deps.store) return refuse(reply, 404, 'shows_off', 'This server keeps no show ledger.');
  });
  // Never undefined in a handler: without a ledger the hook above answered first.
  const store = deps.store as ShowStore;
  const noSuchShow = (reply: FastifyReply) => refuse(reply, 404, 'not_found', 'No such show.');
  const totals = (key: string) => totalsOf(store.entries(key));

  app.get('/hub/shows', { config: READ, schema: { querystring: Limit } }, async (request) => ({
    shows: store.shows(request.query.limit).map((show) => ({ ...show, totals: totals(show.key) })),
  }));

  app.post(
    '/hub/shows',
    { bodyLimit: BODY_LIMIT, config: RECORD, schema: { body: NewShow } },
    async (request, reply) => {
      const made = store.createShow({
        ...request.body,
        createdAt: now(),
        createdBy: actorName(request),
      });
      const { show } = made;
      return reply.code(made.created ? 201 : 200).send({ show, totals: totals(show.key) });
    },
  );

  app.get(
    '/hub/shows/:key',
    { config: READ, schema: { params: ShowParams } },
    async (request, reply) => {
      const show = store.show(request.params.key);
      if (!show) return noSuchShow(reply);
      const entries = store.entries(show.key);
      const caseListings = deps.caseListings?.(show.caseListingIds) ?? [];
      return { show, entries, totals: totalsOf(entries), caseListings };
    },
  );

  app.put(
    '/hub/shows/:key/case',
    { bodyLimit: 256 * 1024, config: RECORD, schema: { params: ShowParams, body: CaseBody } },
    async (request, reply) => {
      const { key } = request.params;
      if (!store.setCase(key, request.body.listingIds)) return noSuchShow(reply);
      return { show: store.show(key) };
    },
  );

  app.post(
    '/hub/shows/:key/entries',
    { bodyLimit: BODY_LIMIT, config: RECORD, schema: { params: ShowParams, body: NewEntry } },
    async (request, reply) => {
      const showKey = request.params.key;
      if (!store.show(showKey)) return noSuchShow(reply);
      const recorded = store.record(
        { ...request.body, showKey, soldBy: actorName(request) },
        now(),
      );
      if (recorded.soldBefore) {
        // "already sold at Philly Card Show on Nov 28, 2026 for $250.00 cash", in the seller's words.
        const { showKey: show_key, soldAt: sold_at, showName, showDate } = recorded.soldBefore;
        const paid = paidWords(recorded.soldBefore.priceCents, recorded.soldBefore.tenders);
        const words = `This slab was already sold at ${showName} on ${dayWords(showDate)} for ${paid}: a slab is sold once.`;
        return refuse(reply, 409, SOLD_BEFORE, words, { show_key, sold_at });
      }
      const { entry: kept, created } = recorded;
      if (kept.showKey !== showKey) {
        return refuse(reply, 409, 'entry_key_used', 'This entry was recorded at another show.');
      }
      return reply
        .code(created ? 201 : 200)
        .header('idempotent-replayed', String(!created))
        .send({ entry: kept });
    },
  );

  app.post(
    '/hub/shows/:key/entries/:entry/void',
    { bodyLimit: BODY_LIMIT, config: UNDO, schema: { params: EntryParams, body: VoidBody } },
    async (request, reply) => {
      const { key, entry } = request.params;
      const by = actorName(request);
      const undone = store.voidEntry(key, entry, { at: now(), by, ...request.body });
      if (!undone) return refuse(reply, 404, 'not_found', 'No such sale at this show.');
      return reply
        .header('idempotent-replayed', String(!undone.changed))
        .send({ entry: undone.entry });
    },
  );

  app.get(
    '/hub/shows/:key/ledger.csv',
    { config: READ, schema: { params: ShowParams, querystring: CsvQuery } },
    async (request, reply) => {
      const show = store.show(request.params.key);
      if (!show) return noSuchShow(reply);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="slabdesk-show-${show.date}.csv"`)
        .send(showCsv(show, store.entries(show.key), knownZone(request.query.tz)));
    },
  );

  /** `?listing=<id>`: the listing's sale at any show, or null. */
  app.get(
    '/hub/show-sales',
    { config: READ, schema: { querystring: SaleQuery } },
    async (request) => ({
      sale: store.saleOf(request.query.listing) ?? null,
      voidedKeys: store.voidedKeysOf(request.query.listing),
    }),
  );

  app.get('/hub/trade-ins', { config: READ, schema: { querystring: Limit } }, async (request) => ({
    tradeIns: store.tradeIns(request.query.limit),
  }));
};
