import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PageSource } from '../../src/server/app-server';
import { distPages } from '../../src/server/dist-pages';

/** A build of one empty page: a server whose pages the test does not look at. */
export async function emptyPages(): Promise<PageSource> {
  const folder = mkdtempSync(join(tmpdir(), 'slabdesk-dist-'));
  mkdirSync(join(folder, 'assets'));
  writeFileSync(
    join(folder, 'index.html'),
    '<!doctype html><html><head><title>t</title></head></html>',
  );
  return distPages(folder);
}
