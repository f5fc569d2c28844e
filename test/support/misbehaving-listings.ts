import { startFakeUpstream, type FakeUpstream } from './fake-upstream';

/** How the upstream answers the listings walk's later pages (`page_info=p<n>`). */
export type Misbehaviour =
  /** Page 2 points back at itself: a repeated cursor. */
  | 'looping-cursor'
  /** Every later page is the first page again, under a fresh cursor. */
  | 'repeated-page'
  /** Page 2 is a 200 whose body is not JSON. */
  | 'invalid-json'
  /** Every later page is empty and announces another. */
  | 'endless-empty-pages';

export interface MisbehavingUpstream extends FakeUpstream {
  /** The listings pages asked for (each URL, in order). */
  listingCalls: string[];
}

/**
 * An upstream in front of a real sandbox that answers every call as the sandbox does except the
 * listings walk, which it serves itself from the sandbox's first two pages of 250 and then
 * misbehaves as told. Every other path is forwarded, with its headers, to `target`.
 */
export async function startMisbehavingListings(
  target: string,
  token: string,
  how: Misbehaviour,
): Promise<MisbehavingUpstream> {
  const read = (query: string) =>
    fetch(`${target}/2026-07/listings.json?limit=250${query}`, {
      headers: { 'x-service-access-token': token },
    });
  const firstAnswer = await read('');
  // The sandbox's own cursor to its second page (the looping cursor serves that page).
  const cursor = /page_info=([^&>]+)/.exec(firstAnswer.headers.get('link') ?? '')?.[1] ?? '';
  const first = (await firstAnswer.json()) as { listings: unknown[] };
  const listingCalls: string[] = [];
  let base = '';
  const upstream = await startFakeUpstream((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname.endsWith('/listings.json') && !url.searchParams.has('updated_at_min')) {
      listingCalls.push(url.href);
      const page = Number(/^p(\d+)$/.exec(url.searchParams.get('page_info') ?? '')?.[1] ?? 1);
      const link = (n: number) =>
        `<${base}/2026-07/listings.json?limit=250&page_info=p${n}>; rel="next"`;
      const json = (body: unknown, next: number | undefined) =>
        res
          .writeHead(200, {
            'content-type': 'application/json',
            date: new Date().toUTCString(),
            ...(next === undefined ? {} : { link: link(next) }),
          })
          .end(JSON.stringify(body));
      if (page === 1) return json(first, 2);
      if (how === 'looping-cursor') {
        void read(`&page_info=${cursor}`)
          .then((answer) => answer.json())
          .then((body) => json(body, 2));
        return;
      }
      if (how === 'repeated-page') return json(first, page + 1);
      if (how === 'endless-empty-pages') return json({ listings: [] }, page + 1);
      res.writeHead(200, { 'content-type': 'application/json' }).end('<html>Bad gateway</html>');
      return;
    }
    void forward(target, req.url ?? '/', req.method ?? 'GET', req.headers, req).then(
      ({ status, headers, body }) => res.writeHead(status, headers).end(body),
      () => res.destroy(),
    );
  });
  base = upstream.url;
  return { ...upstream, listingCalls };
}

async function forward(
  target: string,
  path: string,
  method: string,
  headers: Record<string, string | string[] | undefined>,
  body: AsyncIterable<Buffer>,
): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk);
  const sent: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && name !== 'host' && name !== 'connection') {
      sent[name] = Array.isArray(value) ? value.join(', ') : value;
    }
  }
  const answer = await fetch(`${target}${path}`, {
    method,
    headers: sent,
    body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
  });
  const out: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    if (!['content-encoding', 'content-length', 'transfer-encoding', 'connection'].includes(name))
      out[name] = value;
  });
  return { status: answer.status, headers: out, body: Buffer.from(await answer.arrayBuffer()) };
}
