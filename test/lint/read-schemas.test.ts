import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';

/**
 * The client keeps a record as it came once its schema accepts it (not zod's copy), which is only
 * right while the read schemas check and never change a value: no transform, default, coercion,
 * catch or pipe anywhere in src/client.
 */
const CHANGING =
  /\bz\.(transform|pipe|_default|prefault|catch|coerce|preprocess|codec|overwrite)\b/;

describe('the read schemas only check', () => {
  it('src/client uses no zod call that changes a value', () => {
    const dir = join(process.cwd(), 'src/client');
    const offending = readdirSync(dir)
      .filter((file) => file.endsWith('.ts'))
      .filter((file) => CHANGING.test(readFileSync(join(dir, file), 'utf8')));
    expect(offending).toEqual([]);
  });

  it('would catch one: a default changes what zod gives back', () => {
    const schema = z.object({ id: z.string(), note: z._default(z.string(), 'none') });
    const source = "z.object({ note: z._default(z.string(), 'none') })";
    expect(CHANGING.test(source)).toBe(true);
    expect(schema.parse({ id: 'a' })).toEqual({ id: 'a', note: 'none' });
  });
});
