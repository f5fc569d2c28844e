import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Manifest } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppServer, type RunningAppServer } from '../../src/server/app-server';
import { distPages } from '../../src/server/dist-pages';
import { ROUTE_MODULES, routePreloads, withModulePreloads } from '../../src/server/route-preloads';

const root = resolve(import.meta.dirname, '../..');

/** A bundle's manifest as Vite writes it: an entry, shared chunks, pages and loaders. */
const MANIFEST: Manifest = {
  'index.html': { file: 'assets/index-1.js', isEntry: true, imports: ['_common-1.js'] },
  '_common-1.js': { file: 'assets/common-1.js' },
  '_states-1.js': { file: 'assets/states-1.js', imports: ['_common-1.js'] },
  'src/features/overview/overview-page.tsx': {
    file: 'assets/overview-page-1.js',
    isDynamicEntry: true,
    imports: ['_common-1.js'],
  },
  'src/features/listings/catalogue/listings-page.tsx': {
    file: 'assets/listings-page-1.js',
    isDynamicEntry: true,
    imports: ['index.html', '_states-1.js', 'src/api/listings/catalogue-query.ts'],
  },
  'src/api/listings/catalogue-query.ts': {
    file: 'assets/catalogue-query-1.js',
    isDynamicEntry: true,
    imports: ['_common-1.js'],
  },
  'src/features/listings/forms/new-listing-page.tsx': {
    file: 'assets/new-listing-page-1.js',
    isDynamicEntry: true,
    imports: ['_states-1.js'],
  },
  'src/features/listings/detail/listing-detail-page.tsx': {
    file: 'assets/listing-detail-page-1.js',
    isDynamicEntry: true,
    imports: ['src/features/listings/catalogue/listings-page.tsx'],
  },
  'src/api/listings/listing-detail-query.ts': {
    file: 'assets/listing-queries-1.js',
    isDynamicEntry: true,
  },
};

describe("a route's code named in its page", () => {
  const preloads = routePreloads(MANIFEST);

  it("names its loader's chunk first, the page's and what they import, never the entry's own", () => {
    expect(preloads('/listings/lst_1')[0]).toBe('assets/listing-queries-1.js');
    expect(preloads('/listings')).toEqual([
      'assets/listings-page-1.js',
      'assets/states-1.js',
      'assets/catalogue-query-1.js',
    ]);
    expect(preloads('/')).toEqual(['assets/overview-page-1.js']);
  });

  it("matches a path as the router does: a fixed segment before a listing's id", () => {
    expect(preloads('/listings/new')).toEqual([
      'assets/new-listing-page-1.js',
      'assets/states-1.js',
    ]);
    expect(preloads('/listings/lst_1')).toEqual([
      'assets/listing-queries-1.js',
      'assets/listing-detail-page-1.js',
      'assets/listings-page-1.js',
      'assets/states-1.js',
      'assets/catalogue-query-1.js',
    ]);
    expect(preloads('/listings/')).toEqual(preloads('/listings'));
  });

  it('names nothing for a path no route has, or a route the bundle does not hold', () => {
    expect(preloads('/no-such-page')).toEqual([]);
    // The manifest has no chunk for the orders page (an older or another bundle).
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
    mkdirSync(join(dist, '.vite'));
    writeFileSync(join(dist, '.vite/manifest.json'), JSON.stringify(MANIFEST));
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
    expect(links(listings)).toEqual(routePreloads(MANIFEST)('/listings'));
    const unknown = await (await fetch(`${app.url}/no-such-page`)).text();
    expect(links(unknown)).toEqual([]);
    expect(unknown).toContain('<div id="root">');
  });

  it('keeps the manifest to itself', async () => {
    const res = await fetch(`${app.url}/.vite/manifest.json`);
    expect(await res.text()).not.toContain('"isEntry"');
  });
});
