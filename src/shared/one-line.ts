/**
 * A line of text a seller names a thing with: no control characters or line separators (they
 * break the activity log, the CSV exports and the pages that show it). Its words beside it.
 */
export const ONE_LINE = /^[^\p{Cc}\u2028\u2029]*$/u;
export const ONE_LINE_WORDS = 'must not contain control characters';
