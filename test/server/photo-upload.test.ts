import { statSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_LIVE_TOKEN } from '../../src/sandbox';
import { startAppServer, type RunningAppServer } from '../../src/server/app-server';
import { distPages } from '../../src/server/dist-pages';
import { codeOf, fakeDist, SIGN_IN_HEAVY_MS, signedInServer, Browser } from '../security/auth-http';
import { startHarness, type Harness } from '../support/sandbox-harness';

/**
 * A photo from the phone for a new listing, on the dashboard's server in front of the real
 * sandbox: kept by the hub (content sniffed, size bounded, editors only) and served publicly at
 * an unguessable address, since the marketplace downloads a listing's photos itself.
 */

/** A 1 × 1 JPEG and PNG, as cameras and canvases write them. */
const JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
  'base64',
);
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const GIF = Buffer.from('R0lGODlhAQABAAAAACw=', 'base64');

let harness: Harness;
let local: RunningAppServer;
let signedIn: RunningAppServer;
let folder: string;
let people: Record<'editor' | 'viewer', Browser>;
const PASSWORD = 'photo-password-1234';

beforeAll(async () => {
  harness = await startHarness({ seed: 'demo', rateLimit: false });
  const upstream = { baseUrl: harness.url, apiKey: DEMO_LIVE_TOKEN };
  folder = join(mkdtempSync(join(tmpdir(), 'slabdesk-photo-test-')), 'photos');
  local = await startAppServer(
    { upstream, port: 0, activity: { path: ':memory:' }, photos: { path: folder } },
    async () => distPages(fakeDist()),
  );
  ({ server: signedIn, people } = await signedInServer(
    {
      upstream,
      port: 0,
      activity: { path: ':memory:' },
      auth: { publicUrl: 'https://slabs.example.com' },
    },
    { editor: 'eddie', viewer: 'vera' },
    PASSWORD,
  ));
}, SIGN_IN_HEAVY_MS);

afterAll(async () => {
  await local?.close();
  await signedIn?.close();
  await harness?.close();
});

async function upload(bytes: Buffer, type = 'image/jpeg', server = local) {
  const response = await fetch(`${server.url}/hub/photos`, {
    method: 'POST',
    headers: { 'content-type': type },
    body: new Blob([new Uint8Array(bytes)]),
  });
  const text = await response.text();
  return {
    status: response.status,
    json: JSON.parse(text) as {
      photo?: { url: string; type: string; bytes: number; https: boolean };
      svc_error?: { code: string; max_bytes?: number };
    },
  };
}

describe('a photo for a new listing', () => {
  it('keeps a JPEG and serves the same bytes at an unguessable public address', async () => {
    const kept = await upload(JPEG);
    expect(kept.status).toBe(201);
    const photo = kept.json.photo!;
    expect(photo).toMatchObject({ type: 'image/jpeg', bytes: JPEG.byteLength, https: false });
    // No public address set: the one the page used, which the marketplace refuses (not https).
    expect(photo.url).toMatch(new RegExp(`^${local.url}/hub/photos/[A-Za-z0-9_-]{24}\\.jpg$`));
    const served = await fetch(photo.url);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(JPEG)).toBe(true);
    expect(served.headers.get('content-type')).toBe('image/jpeg');
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    // Kept on disk, readable by this user only.
    const name = photo.url.split('/').pop()!;
    expect(statSync(join(folder, name)).mode & 0o777).toBe(0o600);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    // Two uploads of the same bytes get two addresses: nothing to guess from the content.
    const again = await upload(JPEG);
    expect(again.json.photo!.url).not.toBe(photo.url);
  });

  it('knows a photo by its bytes, not by what the sender calls it', async () => {
    const png = await upload(PNG, 'application/octet-stream');
    expect(png.status).toBe(201);
    expect(png.json.photo).toMatchObject({ type: 'image/png' });
    expect(png.json.photo!.url).toMatch(/\.png$/);
    for (const [bytes, type] of [
      [GIF, 'image/jpeg'],
      [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/jpeg'],
      [Buffer.from('%PDF-1.7 not a photo'), 'image/png'],
    ] as const) {
      const refused = await upload(bytes, type);
      expect(refused.status).toBe(415);
      expect(refused.json.svc_error?.code).toBe('unsupported_media_type');
    }
    const empty = await upload(Buffer.alloc(0));
    expect(empty.status).toBe(422);
  });

  it('refuses a photo over the spec’s 15 MB in the house envelope', async () => {
    const huge = Buffer.alloc(15 * 1024 * 1024 + 1, 0);
    JPEG.copy(huge);
    const refused = await upload(huge);
    expect(refused.status).toBe(413);
    expect(refused.json.svc_error).toMatchObject({
      code: 'body_too_large',
      max_bytes: 15 * 1024 * 1024,
    });
  });

  it('answers 404 for a name it did not give', async () => {
    for (const name of [
      'AAAAAAAAAAAAAAAAAAAAAAAA.jpg',
      'x.jpg',
      '..%2F..%2Fetc%2Fpasswd',
      'a.gif',
    ]) {
      const answer = await fetch(`${local.url}/hub/photos/${name}`);
      expect([400, 404], name).toContain(answer.status);
    }
  });

  it('lets an editor add a photo, not a viewer, and serves it to anyone at the public https address', async () => {
    const headers = { 'content-type': 'image/jpeg', 'content-length': String(JPEG.byteLength) };
    const token = await people.viewer.csrf();
    const byViewer = await people.viewer.request('/hub/photos', {
      method: 'POST',
      headers: { ...headers, 'x-slabdesk-csrf': token },
      body: JPEG,
      whole: true,
    } as never);
    expect(byViewer.status).toBe(403);
    expect(codeOf(byViewer)).toBeTruthy();
    const editorToken = await people.editor.csrf();
    const byEditor = await people.editor.request('/hub/photos', {
      method: 'POST',
      headers: { ...headers, 'x-slabdesk-csrf': editorToken },
      body: JPEG,
      whole: true,
    } as never);
    expect(byEditor.status, byEditor.body).toBe(201);
    const photo = (JSON.parse(byEditor.body) as { photo: { url: string; https: boolean } }).photo;
    expect(photo.https).toBe(true);
    expect(photo.url).toMatch(
      /^https:\/\/slabs\.example\.com\/hub\/photos\/[A-Za-z0-9_-]{24}\.jpg$/,
    );
    // No session: the marketplace downloads it as anyone.
    const path = new URL(photo.url).pathname;
    const anyone = new Browser(signedIn.url, new URL(signedIn.url).host);
    const served = await anyone.request(path);
    expect(served.status).toBe(200);
  });
});

describe('the photo, listed through the sandbox of `npm run dev`', () => {
  let devSandbox: Harness;
  let devHub: RunningAppServer;

  beforeAll(async () => {
    // As src/main/embedded-sandbox.ts starts it: photos on this machine over plain http allowed.
    devSandbox = await startHarness({ seed: 'demo', rateLimit: false, loopbackImages: true });
    devHub = await startAppServer(
      {
        upstream: { baseUrl: devSandbox.url, apiKey: DEMO_LIVE_TOKEN },
        port: 0,
        activity: { path: ':memory:' },
      },
      async () => distPages(fakeDist()),
    );
  });

  afterAll(async () => {
    await devHub?.close();
    await devSandbox?.close();
  });

  /** A new listing of a cert the grader knows, with `images`, through the hub's proxy. */
  async function listWith(images: string[], sandbox = devSandbox, hub = devHub) {
    const cert = String(7_700_000_000 + Math.floor(Math.random() * 1_000_000));
    const made = await sandbox.control('POST', '/certs', {
      cert_number: cert,
      grader: 'PSA',
      title: '1986 Test Fleer Photo #57',
      grade: '8',
    });
    expect(made.status).toBe(200);
    const response = await fetch(`${hub.url}/api/2026-07/listings.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
      body: JSON.stringify({
        listing: {
          sku: cert,
          grader: 'PSA',
          price: '150.00',
          images: images.map((src) => ({ src })),
        },
      }),
    });
    return {
      status: response.status,
      body: (await response.json()) as {
        listing?: { id: string; images?: { src: string }[] };
        errors?: Record<string, string[]>;
      },
    };
  }

  it('downloads the hub’s photo and lists it', async () => {
    const kept = await upload(JPEG, 'image/jpeg', devHub);
    expect(kept.status).toBe(201);
    const listed = await listWith([kept.json.photo!.url]);
    expect(listed.status, JSON.stringify(listed.body)).toBe(201);
    const read = await devSandbox.api(`/listings/${listed.body.listing!.id}.json`, {
      token: DEMO_LIVE_TOKEN,
    });
    const { listing } = (await read.json()) as { listing: { images?: { src: string }[] } };
    expect(listing.images?.map((image) => image.src)).toEqual([kept.json.photo!.url]);
  });

  it('refuses a photo the hub does not hold, and plain http anywhere else', async () => {
    const missing = await listWith([`${devHub.url}/hub/photos/AAAAAAAAAAAAAAAAAAAAAAAA.jpg`]);
    expect(missing.status).toBe(422);
    expect(missing.body.errors?.images?.join(' ')).toMatch(/could not be downloaded: answered 404/);
    const elsewhere = await listWith(['http://photos.example.com/slab.jpg']);
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body.errors?.images?.join(' ')).toMatch(/must be an https URL/);
  });

  it('is refused by a sandbox not started so: the spec’s https rule stands', async () => {
    const kept = await upload(JPEG);
    const listed = await listWith([kept.json.photo!.url], harness, local);
    expect(listed.status).toBe(422);
    expect(listed.body.errors?.images?.join(' ')).toMatch(/must be an https URL/);
  });
});
