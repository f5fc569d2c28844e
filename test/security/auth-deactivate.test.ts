import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppServer, type RunningAppServer } from '../../src/server/app-server';
import { distPages } from '../../src/server/dist-pages';
import { startHarness, type Harness } from '../support/sandbox-harness';
import {
  Browser,
  codeOf,
  fakeDist,
  listingAt100,
  listingOf,
  SIGN_IN_HEAVY_MS,
  usersDb,
} from './auth-http';

/**
 * The finding "an editor (who may not deactivate) takes a listing off sale with
 * `PUT {status: "draft"}`": a listing write whose body sets any status but `active` is a
 * deactivation, refused to editors as DELETE is, in every body form the marketplace reads.
 */
const PASSWORD = { owner: 'owner password 1', editor: 'editor password 1' };

let harness: Harness;
let token: string;
let app: RunningAppServer;
let editor: Browser;
let owner: Browser;

const listingNow = (id: string) => listingOf(harness, token, id);
const freshListing = () => listingAt100(harness, token);

beforeAll(async () => {
  harness = await startHarness();
  ({ token } = await harness.seller());
  const db = await usersDb([
    { name: 'ann', role: 'owner', password: PASSWORD.owner },
    { name: 'ed', role: 'editor', password: PASSWORD.editor },
  ]);
  const dist = fakeDist();
  app = await startAppServer(
    {
      upstream: { baseUrl: harness.url, apiKey: token },
      port: 0,
      auth: { usersDb: db, requireSignIn: true },
    },
    async () => distPages(dist),
  );
  const host = `127.0.0.1:${app.port}`;
  editor = new Browser(app.url, host);
  owner = new Browser(app.url, host);
  expect((await editor.signIn('ed', PASSWORD.editor)).status).toBe(303);
  expect((await owner.signIn('ann', PASSWORD.owner)).status).toBe(303);
});

afterAll(async () => {
  await app?.close();
  await harness?.close();
});

describe('deactivation by status', () => {
  it(
    'is refused to an editor in every body form, the listing left on sale',
    { timeout: SIGN_IN_HEAVY_MS },
    async () => {
      const id = await freshListing();
      const listing = `/api/2026-07/listings/${id}.json`;
      const product = `/api/2026-07/products/${id}.json`;
      const refused: [string, string, string][] = [
        ['PUT', listing, JSON.stringify({ listing: { status: 'draft' } })],
        ['PUT', listing, JSON.stringify({ listing: { price: '90.00', status: 'archived' } })],
        ['PUT', listing, JSON.stringify({ listing: { svc_status: 'draft' } })],
        ['PUT', product, JSON.stringify({ product: { status: 'draft' } })],
        ['PUT', product, JSON.stringify({ product: { variants: [{ status: 'draft' }] } })],
        ['POST', product, JSON.stringify({ product: { status: 'draft' } })],
        [
          'PUT',
          `/api/2026-07/%6Cistings/${id}.json`,
          JSON.stringify({ listing: { status: 'draft' } }),
        ],
        // A key given twice: read one way here and perhaps the other way upstream.
        ['PUT', listing, '{"listing":{"status":"active","status":"draft"}}'],
        ['PUT', listing, '{"listing":{"st\\u0061tus":"draft"}}'],
      ];
      const csrf = await editor.csrf();
      for (const [method, path, body] of refused) {
        const answer = await editor.request(path, {
          method,
          headers: { 'content-type': 'application/json', 'x-slabdesk-csrf': csrf },
          body,
        });
        expect(answer.status, body).toBe(403);
        expect(codeOf(answer), body).toBe('role_forbidden');
        expect(JSON.parse(answer.body).errors).toBe(
          'Your role (editor) cannot deactivate listings; ask an owner.',
        );
      }
      // One of a bulk job, sent whole with its length.
      const bulk = await editor.request(listing, {
        method: 'PUT',
        headers: {
          'content-type': 'application/json',
          'x-slabdesk-csrf': csrf,
          'x-slabdesk-bulk-job': 'job-1',
        },
        body: JSON.stringify({ listing: { status: 'draft' } }),
        whole: true,
      });
      expect(bulk.status).toBe(403);
      expect((await listingNow(id)).status).toBe('active');
    },
  );

  it(
    'lets an editor change a price (and keep a listing active), and an owner take it off sale',
    { timeout: SIGN_IN_HEAVY_MS },
    async () => {
      const id = await freshListing();
      const path = `/api/2026-07/listings/${id}.json`;
      const price = await editor.write('PUT', path, { listing: { price: '120.00' } });
      expect(price.status).toBe(200);
      expect((await listingNow(id)).price).toBe('120.00');
      const whole = await editor.request(path, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', 'x-slabdesk-csrf': await editor.csrf() },
        body: JSON.stringify({ listing: { price: '125.00', status: 'active' } }),
        whole: true,
      });
      expect(whole.status).toBe(200);
      expect((await listingNow(id)).price).toBe('125.00');

      const draft = await owner.write('PUT', path, { listing: { status: 'draft' } });
      expect(draft.status).toBe(200);
      expect((await listingNow(id)).status).toBe('draft');
    },
  );
});
