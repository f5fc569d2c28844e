import { isAscii } from 'node:buffer';
import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Writable } from 'node:stream';
import { constants, createGzip } from 'node:zlib';
import { WALK_CONTENT_TYPE, WALK_HEAD_DIGITS, type WalkFrameHead } from '../client/walk-frames';
import { ANSWER_GZIP_LEVEL } from './gzip-reply';
import {
  API_PREFIX,
  answerBytes,
  answerHeaders,
  gzipsFor,
  nextPageOf,
  sendJson,
  tellAnswered,
  upstreamPath,
  upstreamUrlOf,
  type ProxyOptions,
  type Upstream,
} from './api-proxy';
import { callTermsOf, governedUpstreamCall } from './governed-call';
import { priorityOf, type KeyGovernor } from './governor/key-governor';
import type { UpstreamAnswer } from './upstream-call';
import { ServerWalkGuard } from './walk-guard';
import { serverLog } from './log';
import { requestUrl } from './request-url';

/** Where the browser asks for a walk's pages in one answer: `GET /hub/walk?url=/api/...`. */
export const WALK_PATH = '/hub/walk';

/**
 * One page as a frame: head length in hex, head (JSON), body; lengths in the UTF-16 units the
 * browser decodes.
 */
function frameOf(head: Omit<WalkFrameHead, 'chars'>, body: Buffer): Buffer {
  const chars = isAscii(body) ? body.length : body.toString('utf8').length;
  const headText = JSON.stringify({ ...head, chars });
  const length = headText.length.toString(16).padStart(WALK_HEAD_DIGITS, '0');
  return Buffer.concat([Buffer.from(`${length}${headText}`, 'utf8'), body]);
}

/**
 * A cursor walk in one answer: from the browser's first page `url`, each `rel="next"` in turn,
 * through the governor at the browser's priority, each answer written as a frame while the next is
 * asked for. Ends after the last page, a non-200, an unreachable upstream or a browser gone;
 * gzipped for a browser elsewhere, flushed per frame.
 */
export async function streamWalk(
  request: IncomingMessage,
  response: ServerResponse,
  upstream: Upstream,
  governor: KeyGovernor | undefined,
  options: ProxyOptions = {},
): Promise<void> {
  const host = request.headers.host ?? '';
  const incoming = requestUrl(request.url, `http://${host}`);
  const first = incoming.searchParams.get('url');
  const base = upstream.baseUrl.replace(/\/$/, '');
  const start = first?.startsWith(API_PREFIX) ? new URL(first, `http://${host}`) : undefined;
  const startUpstream = start ? upstreamUrlOf(start, base) : null;
  if (request.method !== 'GET' || !start || startUpstream === null) {
    sendJson(response, 404, 'not_found', 'Not a walk of a versioned API path.');
    return;
  }
  const headers: Record<string, string> = {
    'x-service-access-token': upstream.apiKey,
    accept: 'application/json',
  };
  const priority = priorityOf(request.headers['x-slabdesk-priority']);
  const gone = new AbortController();
  response.on('close', () => gone.abort());
  const terms = callTermsOf(request, options);

  /** One page after its turn in the governor; undefined when the walk cannot go on. */
  // Never rejects: a page asked for ahead may be left unawaited when the walk ends.
  const call = async (url: string): Promise<UpstreamAnswer | undefined> => {
    try {
      const answer = await governedUpstreamCall(
        governor,
        priority,
        gone.signal,
        url,
        { method: 'GET', headers },
        terms,
      );
      return typeof answer === 'string' ? undefined : answer;
    } catch (error) {
      serverLog.error({ err: error }, 'Walk: a page could not be read');
      return undefined;
    }
  };

  const gzip = gzipsFor(request, options) ? createGzip({ level: ANSWER_GZIP_LEVEL }) : undefined;
  response.writeHead(200, {
    'content-type': WALK_CONTENT_TYPE,
    'cache-control': 'no-store',
    vary: 'Accept-Encoding',
    ...(gzip ? { 'content-encoding': 'gzip' } : {}),
  });
  gzip?.pipe(response);
  const sink: Writable = gzip ?? response;
  const guard = new ServerWalkGuard();
  let url: string | undefined = start.href;
  let upstreamUrl = startUpstream;
  let pending: Promise<UpstreamAnswer | undefined> | undefined = call(startUpstream);
  while (url !== undefined && pending !== undefined) {
    const answer: UpstreamAnswer | undefined = await pending;
    if (answer === undefined || gone.signal.aborted) break;
    const out = answerHeaders(answer, upstream, base, host, upstreamUrl);
    let next: { url: string; upstream: string } | null =
      answer.status === 200 ? nextPageOf(out.link, host, base) : null;
    const body = answerBytes(answer, upstream.apiKey, out['content-type']);
    // A walk that would not end is not followed: this page is the last the answer brings.
    const stop = answer.status === 200 ? guard.check(body, next?.upstream) : undefined;
    if (stop !== undefined) {
      serverLog.warn(`Walk: stopped after ${url.split('?')[0]}: ${stop}.`);
      next = null;
    }
    // The next page is asked for while this one is written and read.
    pending = next === null ? undefined : call(next.upstream);
    const frame = frameOf({ url, status: answer.status, headers: out }, body);
    // The activity log learns each page's listings, as from the proxy's own answers.
    const path = upstreamPath(new URL(url).pathname) ?? '';
    const seen = { method: 'GET', path, requestBody: undefined, bulkJobId: undefined };
    const page = { status: answer.status, responseHeaders: answer.headers, responseBody: body };
    tellAnswered(options, { ...seen, ...page, actor: options.actor ?? null });
    const room = sink.write(frame);
    gzip?.flush(constants.Z_SYNC_FLUSH);
    if (!room) await once(sink, 'drain', { signal: gone.signal }).catch(() => undefined);
    url = next?.url;
    if (next !== null) upstreamUrl = next.upstream;
  }
  sink.end();
}
