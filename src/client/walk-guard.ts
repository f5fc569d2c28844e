import { ApiError, CLIENT_ERROR_CODES } from './api-error';

/** Most pages one walk reads by default: 2,000 pages of 250 is half a million rows. */
export const DEFAULT_PAGE_BUDGET = 2000;
/** Most empty pages in a row that announce another before the walk is stopped. */
export const MAX_EMPTY_PAGES_IN_A_ROW = 3;

/** What a walk had read when it was stopped: every row and set-aside record it yielded. */
export interface WalkPartial<T, R> {
  rows: T[];
  setAside: R[];
  pages: number;
}

/** Ends a walk that would not end by itself; it keeps what was read. */
export class WalkStoppedError<T = unknown, R = unknown> extends ApiError {
  readonly partial: WalkPartial<T, R>;
  constructor(
    code: typeof CLIENT_ERROR_CODES.cursorLoop | typeof CLIENT_ERROR_CODES.pageBudget,
    message: string,
    partial: WalkPartial<T, R>,
    requestId: string | undefined,
  ) {
    super({ status: 200, code, message, requestId });
    this.name = 'WalkStoppedError';
    this.partial = partial;
  }
}

/** Watches one cursor walk for the ways it can run forever. */
export class WalkGuard {
  private followed = new Set<string>();
  private pagesRead = 0;
  private replayAllowance = 0;
  private emptyInARow = 0;

  constructor(
    private readonly path: string,
    private readonly budget: number = DEFAULT_PAGE_BUDGET,
  ) {}

  /** Called on a restart from the first page. */
  restarted(): void {
    this.followed.clear();
    this.replayAllowance = this.pagesRead;
  }

  /** Whether a `next` URL would be followed (not read before, within the budget). */
  wouldFollow(next: string): boolean {
    return !this.followed.has(next) && this.pagesRead + 1 < this.budget;
  }

  /** Returns the reason to stop after a page, or undefined to go on. */
  check(page: { fresh: number; total: number; next: string | undefined }) {
    this.pagesRead++;
    const loops = (why: string) => ({
      code: CLIENT_ERROR_CODES.cursorLoop,
      message: `Reading ${this.path} stopped at page ${this.pagesRead}: ${why}.`,
    });
    if (page.total > 0 && page.fresh === 0) {
      if (this.replayAllowance > 0) this.replayAllowance--;
      else return loops('it held only records already read, so the reading loops');
    }
    if (page.next === undefined) return undefined;
    this.emptyInARow = page.total === 0 ? this.emptyInARow + 1 : 0;
    if (this.emptyInARow > MAX_EMPTY_PAGES_IN_A_ROW) {
      return loops(`${this.emptyInARow} pages in a row held no records yet announced more`);
    }
    if (this.followed.has(page.next)) {
      return loops('it pointed back to a page already read, so the reading loops');
    }
    this.followed.add(page.next);
    if (this.pagesRead >= this.budget) {
      return {
        code: CLIENT_ERROR_CODES.pageBudget,
        message: `Reading ${this.path} stopped after ${this.pagesRead} pages, the most it reads, with more still announced.`,
      };
    }
    return undefined;
  }
}
