/**
 * Debian's Chromium and the flags this machine needs (no test tool's own browser download;
 * the background-networking flags keep it off a network it cannot reach). Shared by the
 * Playwright config and the browser benchmarks.
 */
export const CHROMIUM_PATH = '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
