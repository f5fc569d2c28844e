import type { Harness } from '../support/sandbox-harness';

/** Helpers shared by the write, idempotency, marketplace and webhook contract tests. */

export interface Answer<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
}

/** Anything JSON: the tests read bodies loosely and assert on their exact values. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test bodies are read loosely
export type Json = any;

let certCounter = 0;
/** A cert number nobody else uses in this process. */
export function freshCert(): string {
  certCounter += 1;
  return `${Date.now() % 1_000_000}${String(certCounter).padStart(4, '0')}`;
}

export async function registerCert(
  h: Harness,
  grader: 'PSA' | 'BGS' | 'SGC' | 'CGC',
  certNumber = freshCert(),
  extra: Record<string, unknown> = {},
): Promise<string> {
  const res = await h.control('POST', '/certs', {
    cert_number: certNumber,
    grader,
    title: `1999 Pokemon Base Charizard #4 ${grader} ${certNumber}`,
    grade: '9',
    year: 1999,
    set: 'Base Set',
    player: 'Charizard',
    category: 'pokemon',
    ...extra,
  });
  if (res.status !== 200) throw new Error(`cert: ${JSON.stringify(res.body)}`);
  return certNumber;
}

export async function call(
  h: Harness,
  method: string,
  path: string,
  token: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer<Json>> {
  const response = await h.api(path, { method, token, body, headers });
  const text = await response.text();
  return {
    status: response.status,
    body: text ? (JSON.parse(text) as Json) : {},
    headers: response.headers,
  };
}

export const createListing = (
  h: Harness,
  token: string,
  listing: Record<string, unknown>,
  headers: Record<string, string> = {},
) => call(h, 'POST', '/listings.json', token, { listing }, headers);

export const updateListing = (
  h: Harness,
  token: string,
  id: string,
  listing: Record<string, unknown>,
  headers: Record<string, string> = {},
) => call(h, 'PUT', `/listings/${id}.json`, token, { listing }, headers);

export const deleteListing = (
  h: Harness,
  token: string,
  id: string,
  headers: Record<string, string> = {},
) => call(h, 'DELETE', `/listings/${id}.json`, token, undefined, headers);

export const getProduct = async (h: Harness, token: string, id: string) =>
  (await call(h, 'GET', `/products/${id}.json`, token)).body.product as Json;

export const getLevel = async (h: Harness, token: string, itemId: string) => {
  const page = await call(h, 'GET', '/inventory_levels.json?limit=250', token);
  return (page.body.inventory_levels as Json[]).find((l) => l.inventory_item_id === itemId);
};

export const errorCode = (answer: Answer<Json>) => answer.body?.svc_error?.code as string;
