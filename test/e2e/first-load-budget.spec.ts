import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { PAGE_DIR, readManifest, staticScripts } from './build-manifest';

/**
 * The shell's budget, gzipped KB: the entry chunk and its static imports (docs/bundle.md). The
 * issue's goal is 130; the shell is 153 today (react-dom, react-router, TanStack Query and zod
 * are 108 of it), so the budget holds it where it is and is lowered as the shell shrinks.
 */
const BUDGET_KB = 155;

test('the first load (the entry and its static imports, gzipped) stays within its budget', () => {
  const scripts = staticScripts(readManifest(), 'index.html');
  const sizes = scripts.map((file) => ({
    file,
    kb: gzipSync(readFileSync(join(PAGE_DIR, file))).length / 1024,
  }));
  const total = sizes.reduce((sum, { kb }) => sum + kb, 0);
  expect(total, `first load: ${JSON.stringify(sizes)}`).toBeLessThanOrEqual(BUDGET_KB);
});
