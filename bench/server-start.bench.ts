import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DEMO_LIVE_TOKEN, startSandbox } from '../src/sandbox';
import { launchChromium } from './browser-setup';
import { median, round, type Bench } from './bench-api';

const root = resolve(import.meta.dirname, '..');

/** `npm start` as a deployment runs it: the compiled server on plain node, the API elsewhere. */
function startCompiled(apiUrl: string, folder: string): { child: ChildProcess; started: number } {
  const started = performance.now();
  const child = spawn(process.execPath, ['dist/server.js', '--port', '0'], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      SVC_BASE_URL: apiUrl,
      SVC_API_KEY: DEMO_LIVE_TOKEN,
      SLABDESK_USERS_DB: join(folder, 'users.db'),
      SLABDESK_ACTIVITY_DB: join(folder, 'activity.db'),
      SLABDESK_HUB_DB: join(folder, 'hub.db'),
      SLABDESK_LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return { child, started };
}

/** The URL the server prints once it listens. */
function urlOf(child: ChildProcess): Promise<string> {
  return new Promise((done, fail) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const url = /ready: (http:\/\/\S+?)\/?\s/.exec(output)?.[1];
      if (url) done(url);
    });
    child.once('exit', (code) => fail(new Error(`the server exited (${code}): ${output}`)));
  });
}

/** Milliseconds from the start until `/healthz` answers 200. */
async function readyAfter(url: string, started: number): Promise<number> {
  for (;;) {
    const answer = await fetch(`${url}/healthz`).catch(() => undefined);
    if (answer?.ok) return performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** The process's resident memory, from the kernel. */
function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

/** Until the replica's first fill is done: every collection filled, or refused to this key. */
async function filled(url: string): Promise<void> {
  for (;;) {
    const status = (await (await fetch(`${url}/hub/replica`)).json()) as {
      collections: Record<string, { filled: boolean; denied: boolean }>;
    };
    if (Object.values(status.collections).every((c) => c.filled || c.denied)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The resident memory once it stops moving: three readings half a second apart within 1 MB. */
async function settledRssMb(pid: number): Promise<number> {
  const readings = [rssMb(pid)];
  while (readings.length < 3 || Math.max(...readings) - Math.min(...readings) > 1) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    readings.push(rssMb(pid));
    if (readings.length > 3) readings.shift();
  }
  return readings.at(-1)!;
}

/** The process's CPU time so far (user + system), in milliseconds. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / 100;
}

/**
 * The compiled server as `npm start` runs it, against a sandbox in this process: how soon it
 * answers (`server.ready_ms`, median of three starts), its memory once a seller has loaded the
 * dashboard and the replica's first fill has settled (`server.rss_idle_mb`, goal 110 MB), and its
 * CPU per proxied page of 250 listings.
 */
const bench: Bench = {
  figures: ['server.ready_ms', 'server.rss_idle_mb', 'server.proxy_page_250_cpu_ms'],
  async run(report) {
    if (!existsSync(join(root, 'dist/server.js'))) {
      spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    }
    const sandbox = await startSandbox({ port: 0, db: ':memory:', seed: 'demo', rateLimit: false });
    const folder = mkdtempSync(join(tmpdir(), 'slabdesk-bench-start-'));
    const readies: number[] = [];
    try {
      for (let run = 0; run < 3; run++) {
        const { child, started } = startCompiled(sandbox.url, folder);
        const url = await urlOf(child);
        readies.push(await readyAfter(url, started));
        if (run < 2) {
          child.kill('SIGTERM');
          await new Promise((resolve) => child.once('exit', resolve));
          continue;
        }
        try {
          const browser = await launchChromium();
          try {
            const page = await browser.newPage();
            await page.goto(`${url}/listings`);
            await page.getByRole('table').first().waitFor({ timeout: 60_000 });
            await page.close();
          } finally {
            await browser.close();
          }
          await filled(url);
          report('server.rss_idle_mb', round(await settledRssMb(child.pid!), 1));
          const calls = 100;
          const path = '/api/2026-07/listings.json?limit=250';
          for (let i = 0; i < 10; i++) await (await fetch(`${url}${path}`)).arrayBuffer();
          const before = cpuMs(child.pid!);
          for (let i = 0; i < calls; i++) await (await fetch(`${url}${path}`)).arrayBuffer();
          report('server.proxy_page_250_cpu_ms', round((cpuMs(child.pid!) - before) / calls, 2));
        } finally {
          child.kill('SIGTERM');
          await new Promise((resolve) => child.once('exit', resolve));
        }
      }
      report('server.ready_ms', Math.round(median(readies)));
    } finally {
      await sandbox.close();
      rmSync(folder, { recursive: true, force: true });
    }
  },
};
export default bench;
