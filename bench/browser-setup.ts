import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { build } from 'vite';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../test/e2e/chromium';

/** Builds the dashboard's production bundle into a fresh temporary folder and returns it. */
export async function buildDashboard(): Promise<string> {
  const root = resolve(import.meta.dirname, '..');
  const outDir = mkdtempSync(join(tmpdir(), 'slabdesk-bench-dist-'));
  await build({ root, logLevel: 'warn', build: { outDir, emptyOutDir: true, sourcemap: false } });
  return outDir;
}

/** Debian's Chromium with this machine's flags. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}
