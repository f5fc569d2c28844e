import { startSandbox, type RunningSandbox } from '../../src/sandbox';
import type { SandboxOptions } from '../../src/sandbox/config';
import { ALL_SCOPES } from '../../src/sandbox/platform/scopes';
import { failingViolations, startPrismProxy, violationsOf, type PrismProxy } from './prism-proxy';

export const VERSION = '2026-07';
/** Every scope the spec lists. */
export const EVERY_SCOPE: string[] = [...ALL_SCOPES];

/** A real sandbox on a free port with a throwaway store, and helpers that speak HTTP to it. */
export interface Harness {
  sandbox: RunningSandbox;
  url: string;
  control<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: T }>;
  api(
    path: string,
    init?: { token?: string; method?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<Response>;
  /** A fresh seller and a key for it. */
  seller(options?: {
    mode?: 'live' | 'test';
    scopes?: string[];
    seller?: Record<string, unknown>;
  }): Promise<{ sellerId: string; token: string; keyId: string }>;
  close(): Promise<void>;
}

/**
 * With `SLABDESK_VALIDATE=prism` (the `npm run test:prism` run), every public API call of the
 * harness goes through Stoplight Prism validating against the sandbox's own OpenAPI document:
 * a response outside the document, or a request outside it that the sandbox accepted, throws.
 */
export const VIA_PRISM = process.env.SLABDESK_VALIDATE === 'prism';
let validated = 0;

export async function startHarness(options: SandboxOptions = {}): Promise<Harness> {
  const sandbox = await startSandbox({ port: 0, db: ':memory:', seed: 'none', ...options });
  const url = sandbox.url;
  const prism: PrismProxy | undefined = VIA_PRISM ? await startPrismProxy(url) : undefined;
  const apiRoot = prism ? prism.url : `${url}/${VERSION}`;
  const harness: Harness = {
    sandbox,
    url,
    async control(method, path, body) {
      const response = await fetch(`${url}/_sandbox${path}`, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: (text ? JSON.parse(text) : {}) as never };
    },
    async api(path, init = {}) {
      const headers: Record<string, string> = { ...init.headers };
      if (init.token) headers['X-Service-Access-Token'] = init.token;
      let body: string | undefined;
      if (init.body !== undefined) {
        headers['content-type'] ??= 'application/json';
        body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
      }
      const target = path.startsWith('http')
        ? path.replace(`${url}/${VERSION}`, apiRoot)
        : `${apiRoot}${path}`;
      const response = await fetch(target, { method: init.method ?? 'GET', headers, body });
      if (prism) {
        validated++;
        const failing = failingViolations(response.status, violationsOf(response.headers));
        if (failing.length > 0) {
          throw new Error(
            `Prism: ${init.method ?? 'GET'} ${path} (${response.status}) breaks the OpenAPI document: ${JSON.stringify(failing)}\n${prism.violationLog().slice(-20).join('\n')}`,
          );
        }
      }
      return response;
    },
    async seller(opts = {}) {
      const seller = await harness.control<{ seller: { id: string } }>(
        'POST',
        '/sellers',
        opts.seller ?? {},
      );
      if (seller.status !== 200) throw new Error(`seller: ${JSON.stringify(seller.body)}`);
      const key = await harness.control<{ key: { id: string; token: string } }>('POST', '/keys', {
        seller_id: seller.body.seller.id,
        mode: opts.mode ?? 'live',
        scopes: opts.scopes ?? EVERY_SCOPE,
      });
      if (key.status !== 200) throw new Error(`key: ${JSON.stringify(key.body)}`);
      return { sellerId: seller.body.seller.id, token: key.body.key.token, keyId: key.body.key.id };
    },
    close: async () => {
      if (prism) {
        await prism.close();
        console.log(
          `prism: ${validated} exchanges validated against the OpenAPI document, 0 violations`,
        );
      }
      await sandbox.close();
    },
  };
  return harness;
}

/** Parses the `Link` header into its rels. */
export function parseLink(header: string | null): Record<string, string> {
  const links: Record<string, string> = {};
  if (!header) return links;
  for (const part of header.split(/,\s*(?=<)/)) {
    const match = /<([^>]+)>;\s*rel="([^"]+)"/.exec(part);
    if (match) links[match[2]!] = match[1]!;
  }
  return links;
}
