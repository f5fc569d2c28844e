import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * ARCHITECTURE.md stays true: every file or folder it names in backticks exists in the tree. A
 * name may be written from the project's root, from `src/` or from its layer's folder, so it
 * holds when some tracked path ends with it.
 */
const FILE = /^[\w.@-]+(\/[\w.@-]+)*(\/|\.(ts|tsx|css|md|json|js|cjs|mjs|html))$/;

function namedPaths(text: string): string[] {
  const names = new Set<string>();
  for (const [, inner] of text.matchAll(/`([^`\n]+)`/g)) {
    const name = inner!.trim();
    if (FILE.test(name) && (name.includes('/') || /\.(ts|tsx)$/.test(name))) names.add(name);
  }
  return [...names];
}

function trackedPaths(): string[] {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const files = out.split('\n').filter(Boolean);
  const folders = new Set<string>();
  for (const file of files) {
    const parts = file.split('/');
    for (let i = 1; i < parts.length; i++) folders.add(`${parts.slice(0, i).join('/')}/`);
  }
  return [...files, ...folders];
}

const exists = (name: string, paths: readonly string[]) =>
  paths.some((path) => path === name || path.endsWith(`/${name}`));

describe('ARCHITECTURE.md', () => {
  const paths = trackedPaths();

  it('names only files and folders that exist', () => {
    const names = namedPaths(readFileSync('ARCHITECTURE.md', 'utf8'));
    expect(names.length).toBeGreaterThan(50);
    expect(names.filter((name) => !exists(name, paths))).toEqual([]);
  });

  it('is caught naming a file that is not there', () => {
    const names = namedPaths('The arithmetic is `lib/price-change.ts`, the page `src/app/x/`.');
    expect(names).toEqual(['lib/price-change.ts', 'src/app/x/']);
    expect(names.filter((name) => !exists(name, paths))).toEqual(names);
  });
});
