import { WALK_HEAD_DIGITS, type WalkFrameHead } from '../../src/client/walk-frames';

export interface WalkAnswerPage {
  head: WalkFrameHead;
  text: string;
}

/**
 * The pages of a `/hub/walk` answer, read from its bytes by the format walk-frames documents
 * (written here independently of the browser's reader, so a test of either checks the other).
 */
export function pagesOfWalkAnswer(bytes: Buffer): WalkAnswerPage[] {
  const pages: WalkAnswerPage[] = [];
  let at = 0;
  while (at < bytes.length) {
    const headLength = Number.parseInt(bytes.subarray(at, at + WALK_HEAD_DIGITS).toString(), 16);
    const headEnd = at + WALK_HEAD_DIGITS + headLength;
    const head = JSON.parse(
      bytes.subarray(at + WALK_HEAD_DIGITS, headEnd).toString(),
    ) as WalkFrameHead;
    pages.push({ head, text: bytes.subarray(headEnd, headEnd + head.bytes).toString('utf8') });
    at = headEnd + head.bytes;
  }
  return pages;
}

/**
 * The API URL a browser request reads: an `/api/` call's own URL, or the first page of a
 * `/hub/walk` (its `url`); undefined for anything else.
 */
export function apiUrlOf(requestUrl: string): string | undefined {
  const url = new URL(requestUrl);
  if (url.pathname.startsWith('/api/')) return url.href;
  const first = url.pathname === '/hub/walk' ? url.searchParams.get('url') : null;
  return first === null ? undefined : new URL(first, url.origin).href;
}
