import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The legal ways a Partner API server written from the spec alone may write its `Link` URLs; each
 * is followed as written, whatever its form.
 */
export const LINK_FORMS = [
  'no .json',
  'root-relative, no .json, without the base path',
  'root-relative with the base path',
  'query only',
  'relative path',
  'absolute without the base path',
  'parameters reordered, one added',
  'rel in other cases and orders, in several fields',
] as const;
export type LinkForm = (typeof LINK_FORMS)[number];

/** Forms a well-behaved client must not follow as written. */
export type HostileLinkForm = 'a credential in the query' | 'another origin';

/** The key-looking credential the hostile form adds to each link's query. */
export const LINK_CREDENTIAL = 'access_token=svc_live_LinkLeak0000000000000000001';

/** The path prefix of this upstream's base URL: `{origin}/partner/2026-07/...`. */
export const BASE_PATH = '/partner';

export interface LinkFormsUpstream {
  /** The base URL, with its path prefix: `http://127.0.0.1:<port>/partner`. */
  url: string;
  /** Every request's URL (path and query) as it arrived. */
  received: string[];
  /** Every `next` link as written, resolved to path and query under the base path. */
  issued: Set<string>;
  close(): Promise<void>;
}

const COLLECTION = /^\/2026-07\/(listings|products|orders|inventory_items|inventory_levels)$/;

/** One `Link` of the sandbox, written in `form` on this upstream (`origin`). */
function written(
  form: LinkForm | HostileLinkForm,
  target: URL,
  rel: string,
  origin: string,
  otherOrigin: string,
): string {
  const path = target.pathname;
  const bare = path.replace(/\.json$/, '');
  const name = bare.slice(bare.lastIndexOf('/') + 1);
  const query = target.search;
  switch (form) {
    case 'no .json':
      return `<${origin}${BASE_PATH}${bare}${query}>; rel="${rel}"`;
    case 'root-relative, no .json, without the base path':
      return `<${bare}${query}>; rel="${rel}"`;
    case 'root-relative with the base path':
      return `<${BASE_PATH}${path}${query}>; rel="${rel}"`;
    case 'query only':
      return `<${query}>; rel="${rel}"`;
    case 'relative path':
      return `<${name}${query}>; rel="${rel}"`;
    case 'absolute without the base path':
      return `<${origin}${path}${query}>; rel="${rel}"`;
    case 'parameters reordered, one added': {
      const pairs = [...target.searchParams].reverse();
      pairs.splice(1, 0, ['view', 'compact']);
      const reordered = pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
      return `<${origin}${BASE_PATH}${path}?${reordered}>; rel="${rel}"`;
    }
    case 'rel in other cases and orders, in several fields':
      return rel === 'next'
        ? `<${origin}${BASE_PATH}${path}${query}>; title="more"; rel="prefetch NEXT"`
        : `<${origin}${BASE_PATH}${path}${query}>; REL=Previous`;
    case 'a credential in the query':
      return `<${origin}${BASE_PATH}${path}${query}&${LINK_CREDENTIAL}>; rel="${rel}"`;
    case 'another origin':
      return `<${otherOrigin}${BASE_PATH}${path}${query}>; rel="${rel}"`;
  }
}

/**
 * A Partner API at `{origin}/partner` that forwards every call to a real sandbox and writes each
 * answer's `Link` in `form`. It takes paths with or without `.json` and the base path; links to
 * `otherOrigin` (the hostile form) name another server.
 */
export async function startLinkFormsUpstream(
  sandboxUrl: string,
  form: LinkForm | HostileLinkForm,
  otherOrigin = 'http://127.0.0.1:9',
): Promise<LinkFormsUpstream> {
  const sandbox = new URL(sandboxUrl);
  const received: string[] = [];
  const issued = new Set<string>();
  let origin = '';
  const server = createServer((req, res) => {
    const raw = req.url ?? '/';
    received.push(raw);
    const asked = new URL(raw, origin);
    const inBase = asked.pathname.startsWith(`${BASE_PATH}/`);
    let path = inBase ? asked.pathname.slice(BASE_PATH.length) : asked.pathname;
    if (COLLECTION.test(path)) path = `${path}.json`;
    const forward = httpRequest(
      {
        host: sandbox.hostname,
        port: sandbox.port,
        method: req.method,
        path: `${path}${asked.search}`,
        headers: { ...req.headers, host: sandbox.host },
      },
      (answer: IncomingMessage) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const headers: Record<string, string | string[]> = {};
          for (const [key, value] of Object.entries(answer.headers)) {
            if (value === undefined || key === 'link') continue;
            if (['content-length', 'transfer-encoding', 'connection'].includes(key)) continue;
            headers[key] = value;
          }
          const links = [
            ...String(answer.headers.link ?? '').matchAll(/<([^>]+)>;\s*rel="(\w+)"/g),
          ];
          const fields = links.map(([, target, rel]) =>
            written(form, new URL(target!), rel!, origin, otherOrigin),
          );
          for (const [i, [, , rel]] of links.entries()) {
            if (rel !== 'next') continue;
            const target = /^<([^>]*)>/.exec(fields[i]!)![1]!;
            const resolved = new URL(target, new URL(raw, origin));
            const under = resolved.pathname.startsWith(`${BASE_PATH}/`) ? '' : BASE_PATH;
            issued.add(`${under}${resolved.pathname}${resolved.search}`);
          }
          // Several links in one field, or (this form) one field each, next first.
          if (form === 'rel in other cases and orders, in several fields') {
            headers.link = fields.reverse();
          } else if (fields.length > 0) headers.link = fields.join(', ');
          res.writeHead(answer.statusCode ?? 502, headers).end(Buffer.concat(chunks));
        });
      },
    );
    forward.on('error', () => res.socket?.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}${BASE_PATH}`,
    received,
    issued,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
