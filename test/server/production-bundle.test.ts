import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build, type Manifest } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppServer, type RunningAppServer } from '../../src/server/app-server';
import { distPages } from '../../src/server/dist-pages';
import { ROUTE_MODULES } from '../../src/server/route-preloads';

const root = resolve(import.meta.dirname, '../..');

/** A concrete path for a route pattern: any id will do, the server serves the same page. */
const samplePath = (pattern: string) => pattern.replace(/:\w+/g, 'sample-1');

/** The scripts a page names: module preloads and `<script src>`, as absolute paths. */
const pageScripts = (html: string) => [
  ...[...html.matchAll(/<link rel="modulepreload"[^>]* href="([^"]+)"/g)].map((m) => m[1]!),
  ...[...html.matchAll(/<script[^>]* src="([^"]+)"/g)].map((m) => m[1]!),
];

/**
 * The files a built module asks for: its static and dynamic imports (relative to it), and the
 * files Vite's preload helper fetches beside a dynamic import (`__vite__mapDeps`, from the root).
 */
function importedFiles(path: string, code: string): string[] {
  const relative = [...code.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g)].map(
    (m) => new URL(m[1]!, `http://x${path}`).pathname,
  );
  const mapDeps = code.match(/__vite__mapDeps=.*?m\.f=(\[[^\]]*\])/)?.[1];
  const preloaded = mapDeps ? (JSON.parse(mapDeps) as string[]).map((file) => `/${file}`) : [];
  return [...relative, ...preloaded];
}

describe('every route of the production build', () => {
  let dist: string;
  let app: RunningAppServer;
  let manifest: Manifest;
  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'slabdesk-bundle-'));
    // Vitest runs with NODE_ENV=test, under which Vite would bundle React's development build.
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      await build({
        root,
        logLevel: 'warn',
        build: { outDir: dist, emptyOutDir: true, sourcemap: false },
      });
    } finally {
      process.env.NODE_ENV = nodeEnv;
    }
    manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8')) as Manifest;
    app = await startAppServer(
      { upstream: { baseUrl: 'http://127.0.0.1:9', apiKey: 'svc_live_k' }, port: 0 },
      async () => distPages(dist),
    );
  }, 240_000);
  afterAll(async () => {
    await app?.close();
    if (dist) rmSync(dist, { recursive: true, force: true });
  });

  /** Each file fetched once: why it is not a served script (or stylesheet), and what it imports. */
  const fetched = new Map<string, Promise<{ problem?: string; imports: string[] }>>();
  const fetchFile = (path: string) => {
    let file = fetched.get(path);
    if (!file) {
      file = fetch(`${app.url}${path}`).then(async (res) => {
        const type = res.headers.get('content-type') ?? '';
        const body = await res.text();
        const css = path.endsWith('.css');
        if (res.status !== 200 || !(css ? /text\/css/ : /javascript/).test(type))
          return { problem: `${res.status} ${type}`, imports: [] };
        return { imports: css ? [] : importedFiles(path, body) };
      });
      fetched.set(path, file);
    }
    return file;
  };

  /** What is wrong with the files `paths` reach, transitively, as `file (from): why`. */
  async function unserved(paths: string[], from: string): Promise<string[]> {
    const problems: string[] = [];
    const seen = new Set<string>();
    let next = paths.map((path) => ({ path, from }));
    while (next.length > 0) {
      const wave = next.filter(({ path }) => !seen.has(path) && seen.add(path));
      const files = await Promise.all(wave.map(({ path }) => fetchFile(path)));
      next = [];
      files.forEach((file, i) => {
        const { path, from: by } = wave[i]!;
        if (file.problem) problems.push(`${path} (from ${by}): ${file.problem}`);
        next.push(...file.imports.map((imported) => ({ path: imported, from: path })));
      });
    }
    return problems;
  }

  it.each(ROUTE_MODULES.map((route) => [samplePath(route.pattern), route.modules[0]!]))(
    '%s names its page module and only served scripts, which import only served files',
    async (path, pageModule) => {
      const res = await fetch(`${app.url}${path}`);
      expect(res.status).toBe(200);
      const scripts = pageScripts(await res.text());
      expect(scripts).toContain(`/${manifest[pageModule]!.file}`);
      expect(await unserved(scripts, path)).toEqual([]);
    },
  );
});
