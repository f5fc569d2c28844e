import { parseLinkHeaderAt } from './link-header';

/**
 * A walk in one answer (`GET /hub/walk?url=...`): each page a frame, as the proxy would have
 * answered it: the head's length in hex, the head (JSON), then the body; lengths in UTF-16 units.
 */
export const WALK_CONTENT_TYPE = 'application/x-slabdesk-walk';
export const WALK_HEAD_DIGITS = 8;

export interface WalkFrameHead {
  /** The page's URL as the browser would have asked for it. */
  url: string;
  status: number;
  /** The headers the proxy would have forwarded (names lower-case). */
  headers: Record<string, string>;
  /** The body's length in UTF-16 code units. */
  chars: number;
}

/** One page of a walk: what the transport reads of the response its own call would have had. */
export type WalkFrame = Pick<Response, 'status' | 'ok' | 'headers' | 'text'>;

interface Expected {
  promise: Promise<WalkFrame | undefined>;
  resolve: (frame: WalkFrame | undefined) => void;
}

function expected(): Expected {
  let resolve!: (frame: WalkFrame | undefined) => void;
  const promise = new Promise<WalkFrame | undefined>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/**
 * Hands each page of a walk answer to the call asking for it (first by the start URL, then by each
 * `rel="next"`); a page the answer never brings is handed over as undefined.
 */
export class WalkFeed {
  /** Pages brought or still to come, by URL, until a call takes them. */
  private readonly pages = new Map<string, Expected>();
  /** The page the next frame brings (taken or not); undefined once the answer has ended. */
  private coming: { url: string; page: Expected } | undefined;
  private readonly controller = new AbortController();

  constructor(
    firstUrl: string,
    open: (signal: AbortSignal) => Promise<Response>,
    private readonly resolve: (link: string) => string,
  ) {
    this.coming = { url: firstUrl, page: expected() };
    this.pages.set(firstUrl, this.coming.page);
    void this.read(open(this.controller.signal)).finally(() => this.end());
  }

  /** The page for `url` if this answer brought it or is to bring it (taken once), else undefined. */
  take(url: string): Promise<WalkFrame | undefined> | undefined {
    const page = this.pages.get(url);
    this.pages.delete(url);
    return page?.promise;
  }

  /** Stops reading (a walk that stops early, or starts again): nothing more is asked for. */
  close(): void {
    this.controller.abort();
    this.end();
    this.pages.clear();
  }

  /** The page still to come will not: its call (if any) makes one of its own. */
  private end(): void {
    if (this.coming === undefined) return;
    this.pages.delete(this.coming.url);
    this.coming.page.resolve(undefined);
    this.coming = undefined;
  }

  private async read(answer: Promise<Response>): Promise<void> {
    const response = await answer.catch(() => undefined);
    const type = response?.headers.get('content-type') ?? '';
    if (!response?.ok || !response.body || !type.startsWith(WALK_CONTENT_TYPE)) {
      await response?.body?.cancel().catch(() => undefined);
      return;
    }
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    // Text not yet handed over, the head of the frame it begins with (once whole), and how long
    // the text must be for the next step: the head's length, then the head, then the body.
    let text = '';
    let head: WalkFrameHead | undefined;
    let need = WALK_HEAD_DIGITS;
    // Read to the answer's end even after its last page, so a whole answer is never cancelled.
    let finished = false;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) {
          finished = true;
          return;
        }
        text += value;
        while (text.length >= need) {
          if (head) {
            this.deliver(head, text.slice(need - head.chars, need));
            text = text.slice(need);
            head = undefined;
            need = WALK_HEAD_DIGITS;
          } else if (need === WALK_HEAD_DIGITS) {
            const length = parseInt(text.slice(0, WALK_HEAD_DIGITS), 16);
            // Not a frame: the answer is read to its end and its pages asked for one by one.
            need = length > 0 ? need + length : NaN;
          } else {
            head = JSON.parse(text.slice(WALK_HEAD_DIGITS, need)) as WalkFrameHead;
            need += head.chars;
          }
        }
      }
    } catch {
      // A dropped answer ends the feed: the pages it did not bring are asked for one by one.
    } finally {
      if (!finished) reader.cancel().catch(() => undefined);
    }
  }

  /** Hands a frame to its page's call, now or when it asks; a frame past the end is dropped. */
  private deliver(head: WalkFrameHead, body: string): void {
    const page = this.coming?.page;
    if (page === undefined) return;
    const headers = new Headers(head.headers);
    const next =
      head.status === 200 ? parseLinkHeaderAt(headers.get('link'), head.url).next : undefined;
    // The next page is expected before this one is handed over: its call may be made at once.
    this.coming = next === undefined ? undefined : { url: this.resolve(next), page: expected() };
    if (this.coming !== undefined) this.pages.set(this.coming.url, this.coming.page);
    const { status } = head;
    page.resolve({ status, ok: status >= 200 && status < 300, headers, text: async () => body });
  }
}
