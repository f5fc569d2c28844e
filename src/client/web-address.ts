import * as z from 'zod/mini';

/**
 * An address the page links or loads (a public page, a photo, a shipping label): http or https, as
 * written. Any other (`javascript:`, `data:`, a path of ours) is unreadable, never an `href` or `src`.
 */
export const WebAddress = z
  .string()
  .check(
    z.refine(
      (value) => /^https?:\/\//i.test(value) && URL.canParse(value),
      'must be an http or https address',
    ),
  );
