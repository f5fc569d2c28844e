import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppServer, type RunningAppServer } from '../../src/server/app-server';
import { CHUNK_MAP_PATH, type ChunkMap } from '../../src/server/chunk-map';
import { distPages } from '../../src/server/dist-pages';
import { ROUTE_MODULES, routePreloads, withModulePreloads } from '../../src/server/route-preloads';

const root = resolve(import.meta.dirname, '../..');

/** A bundle's chunk map as the build writes it: an entry, a shared chunk, pages and loaders. */
const MAP: ChunkMap = {
  modules: {
    'src/main.tsx': 'assets/index-1.js',
    'src/features/overview/overview-page.tsx': 'assets/overview-page-1.js',
    'src/features/listings/listings-page.tsx': 'assets/listings-page-1.js',
    'src/features/listings/catalogue-query.ts': 'assets/catalogue-read-1.js',
    'src/features/listings/new-listing-page.tsx': 'assets/new-listing-page-1.js',
    'src/features/listings/listing-detail-page.tsx': 'assets/listing-detail-page-1.js',
    'src/features/listings/listing-queries.ts': 'assets/listing-queries-1.js',
  },
  chunks: {
    'assets/index-1.js': { entry: true, imports: ['assets/common-1.js'] },
    'assets/common-1.js': { entry: false, imports: [] },
    'assets/states-1.js': { entry: false, imports: ['assets/common-1.js'] },
    'assets/overview-page-1.js': { entry: false, imports: ['assets/common-1.js'] },
    'assets/listings-page-1.js': {
      entry: false,
      imports: ['assets/index-1.js', 'assets/states-1.js', 'assets/catalogue-read-1.js'],
    },
    'assets/catalogue-read-1.js': { entry: false, imports: ['assets/common-1.js'] },
    'assets/new-listing-page-1.js': { entry: false, imports: ['assets/states-1.js'] },
    'assets/listing-detail-page-1.js': { entry: false, imports: ['assets/listings-page-1.js'] },
    'assets/listing-queries-1.js': { entry: false, imports: [] },
  },
};

describe("a route's code named in its page", () => {
  const preloads = routePreloads(MAP);

  it("names the page's chunk, its loader's and what they import, never the entry's own", () => {
    expect(preloads('/listings')).toEqual([
      'assets/listings-page-1.js',
      'assets/states-1.js',
      'assets/catalogue-read-1.js',
    ]);
    expect(preloads('/')).toEqual(['assets/overview-page-1.js']);
  });

  it("matches a path as the router does: a fixed segment before a listing's id", () => {
    expect(preloads('/listings/new')).toEqual([
      'assets/new-listing-page-1.js',
      'assets/states-1.js',
    ]);
    expect(preloads('/listings/lst_1')).toEqual([
      'assets/listing-detail-page-1.js',
      'assets/listings-page-1.js',
      'assets/states-1.js',
      'assets/catalogue-read-1.js',
      'assets/listing-queries-1.js',
    ]);
    expect(preloads('/listings/')).toEqual(preloads('/listings'));
  });

  it('names nothing for a path no route has, or a route the bundle does not hold', () => {
    expect(preloads('/no-such-page')).toEqual([]);
    // The map has no chunk for the orders page (an older or another bundle).
    expect(preloads('/orders')).toEqual([]);
  });

  it('writes the links at the end of the head, and leaves a page without any as it was', () => {
    const html = '<html><head><title>x</title></head><body></body></html>';
    const out = withModulePreloads(html, ['assets/a-1.js', 'assets/b-1.js']);
    expect(out.indexOf('href="/assets/a-1.js"')).toBeLessThan(out.indexOf('</head>'));
    expect(out.match(/<link rel="modulepreload"[^>]*>/g)).toEqual([
      '<link rel="modulepreload" fetchpriority="low" crossorigin href="/assets/a-1.js">',
      '<link rel="modulepreload" fetchpriority="low" crossorigin href="/assets/b-1.js">',
    ]);
    expect(withModulePreloads(html, [])).toBe(html);
  });
});

describe('the route table the server reads and the one the router runs', () => {
  /** Every module src/app/routes.tsx imports on demand, as a path in the repository. */
  const routed = () => {
    const source = readFileSync(join(root, 'src/app/routes.tsx'), 'utf8');
    return new Set(
      [...source.matchAll(/import\('([^']+)'\)/g)].map((match) => {
        const path = join('src/app', match[1]!);
        const file = ['.tsx', '.ts'].map((ext) => path + ext).find((f) => exists(f));
        return file ?? path;
      }),
    );
  };
  const exists = (path: string) => {
    try {
      readFileSync(join(root, path));
      return true;
    } catch {
      return false;
    }
  };

  it('names each module the routes import, and only those', () => {
    const named = new Set(ROUTE_MODULES.flatMap((route) => route.modules));
    expect([...named].sort()).toEqual([...routed()].sort());
    for (const module of named) expect(exists(module), module).toBe(true);
  });
});

describe('the production server', () => {
  let app: RunningAppServer;
  let dist: string;
  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'slabdesk-preloads-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(
      join(dist, 'index.html'),
      '<!doctype html><html><head><title>Slabdesk</title></head><body><div id="root"></div></body></html>',
    );
    mkdirSync(dirname(join(dist, CHUNK_MAP_PATH)), { recursive: true });
    writeFileSync(join(dist, CHUNK_MAP_PATH), JSON.stringify(MAP));
    app = await startAppServer(
      { upstream: { baseUrl: 'http://127.0.0.1:9', apiKey: 'svc_live_k' }, port: 0 },
      async () => distPages(dist),
    );
  });
  afterAll(() => app?.close());

  const links = (html: string) =>
    [...html.matchAll(/<link rel="modulepreload"[^>]* href="\/([^"]+)">/g)].map((m) => m[1]);

  it("names each path's route code in the page it serves", async () => {
    const listings = await (await fetch(`${app.url}/listings?q=psa`)).text();
    expect(links(listings)).toEqual(routePreloads(MAP)('/listings'));
    const unknown = await (await fetch(`${app.url}/no-such-page`)).text();
    expect(links(unknown)).toEqual([]);
    expect(unknown).toContain('<div id="root">');
  });

  it('keeps the chunk map to itself', async () => {
    const res = await fetch(`${app.url}/${CHUNK_MAP_PATH}`);
    expect(await res.text()).not.toContain('"modules"');
  });
});
