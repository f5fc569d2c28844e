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
  const text = bytes.toString('utf8');
  const pages: WalkAnswerPage[] = [];
  let at = 0;
  while (at < text.length) {
    const headLength = Number.parseInt(text.slice(at, at + WALK_HEAD_DIGITS), 16);
    const headEnd = at + WALK_HEAD_DIGITS + headLength;
    const head = JSON.parse(text.slice(at + WALK_HEAD_DIGITS, headEnd)) as WalkFrameHead;
    pages.push({ head, text: text.slice(headEnd, headEnd + head.chars) });
    at = headEnd + head.chars;
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
