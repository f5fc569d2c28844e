import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { sendBody } from './gzip-reply';

/** Content types by extension: the bundle holds no other kinds of file. */
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.map': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
};
const typeOf = (path: string) => TYPES[extname(path)] ?? 'application/octet-stream';
/** Text packs; images and fonts are packed already. */
const compressible = (path: string) => /^text\/|json|svg/.test(typeOf(path));

interface CachedFile {
  body: Buffer;
  gzipped?: Buffer;
}

/**
 * Files read and gzipped once per process while their size and time hold, shared by every server of
 * the process.
 */
const processCache = new Map<string, { size: number; mtimeMs: number; file: CachedFile }>();

async function readCached(path: string): Promise<CachedFile | null> {
  let facts;
  try {
    facts = await stat(path);
  } catch {
    return null;
  }
  if (!facts.isFile()) return null;
  const hit = processCache.get(path);
  if (hit && hit.size === facts.size && hit.mtimeMs === facts.mtimeMs) return hit.file;
  const body = await readFile(path);
  const file: CachedFile = { body };
  if (compressible(path) && body.length > 512) file.gzipped = gzipSync(body);
  processCache.set(path, { size: facts.size, mtimeMs: facts.mtimeMs, file });
  return file;
}

/** A path with a dot-named part: the build's own records (`.vite/`, see route-preloads), not served. */
const hidden = (relative: string) => relative.split(sep).some((part) => part.startsWith('.'));

/**
 * Serves `dist/`: hashed assets cached for good, gzip when taken, the page for every other path.
 */
export function createStaticFiles(root: string) {
  const cache = new Map<string, CachedFile>();

  async function load(path: string): Promise<CachedFile | null> {
    const hit = cache.get(path);
    if (hit) return hit;
    const file = await readCached(path);
    if (file) cache.set(path, file);
    return file;
  }

  return {
    /** Serves a file under root; false when the path names none (the caller serves the page). */
    async serveAsset(
      request: IncomingMessage,
      response: ServerResponse,
      pathname: string,
    ): Promise<boolean> {
      let decoded: string;
      try {
        decoded = decodeURIComponent(pathname);
      } catch {
        return false;
      }
      const path = normalize(join(root, decoded));
      if (!path.startsWith(root + sep) || path.endsWith('index.html')) return false;
      if (hidden(path.slice(root.length))) return false;
      const file = await load(path);
      if (!file) return false;
      const headers: OutgoingHttpHeaders = { 'content-type': typeOf(path) };
      if (decoded.startsWith('/assets/')) {
        headers['cache-control'] = 'public, max-age=31536000, immutable';
      }
      sendBody(request, response, 200, headers, file.body, file.gzipped);
      return true;
    },
    async indexHtml(): Promise<string | null> {
      const file = await load(join(root, 'index.html'));
      return file ? file.body.toString('utf8') : null;
    },
  };
}
