import { createHash } from 'node:crypto';
import { DEFAULT_PAGE_BUDGET, MAX_EMPTY_PAGES_IN_A_ROW } from '../client/walk-guard';

/** A page that holds an empty collection and nothing else: `{"listings":[]}`. */
const EMPTY_PAGE = /^\s*\{\s*"[A-Za-z_]+"\s*:\s*\[\s*\]\s*\}\s*$/;

/**
 * Watches a walk the server makes for the ways it can run forever, as client/walk-guard.ts does,
 * and stops after a 200 that is not a JSON object; the browser's walk then stops with its own
 * error.
 */
export class ServerWalkGuard {
  private readonly followed = new Set<string>();
  private readonly pagesSeen = new Set<string>();
  private pages = 0;
  private emptyInARow = 0;

  constructor(private readonly budget: number = DEFAULT_PAGE_BUDGET) {}

  /** Why the walk stops after this 200 page (whose next page is `next`), or undefined. */
  check(body: Buffer, next: string | undefined): string | undefined {
    this.pages++;
    const start = body.subarray(0, 64).toString('latin1').trimStart();
    if (!start.startsWith('{')) return 'the page is not JSON';
    if (next === undefined) return undefined;
    // A digest, not the page: a walk of 400 pages keeps 400 short strings.
    const digest = createHash('sha1').update(body).digest('base64');
    if (this.pagesSeen.has(digest)) return 'a page came again (the cursor loops)';
    this.pagesSeen.add(digest);
    if (this.followed.has(next)) return 'a cursor came again (the cursor loops)';
    this.followed.add(next);
    const empty = body.length < 256 && EMPTY_PAGE.test(body.toString('utf8'));
    this.emptyInARow = empty ? this.emptyInARow + 1 : 0;
    if (this.emptyInARow > MAX_EMPTY_PAGES_IN_A_ROW) return 'empty pages kept announcing more';
    if (this.pages >= this.budget) return `more than ${this.budget} pages`;
    return undefined;
  }
}
