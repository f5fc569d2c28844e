import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
// Inside the repository, so the bundle finds its one external package (better-sqlite3) as dist/ does.
const outdir = join(root, 'node_modules/.cache', `slabdesk-built-server-${process.pid}`);

/** The URL the server prints once it listens, or its output when it exits first. */
function urlOf(child: ChildProcess): Promise<string> {
  return new Promise((done, fail) => {
    let output = '';
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /ready: (http:\/\/\S+?)\/?\s/.exec(output)?.[1];
      if (url) done(url);
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) =>
      fail(new Error(`the server exited (${code}): ${output.slice(-2000)}`)),
    );
  });
}

/**
 * `npm run build` then `npm start`: the server as one bundle (its packages inside it) on plain
 * node, the embedded sandbox behind it. The browser suite runs the server from source, so only
 * this test meets what bundling can break: a package that reads its own files or requires late.
 */
describe('the built server', () => {
  let child: ChildProcess;
  let url: string;
  let cwd: string;
  beforeAll(async () => {
    execFileSync('npm', ['run', '--silent', 'build:server', '--', `--outdir=${outdir}`], {
      cwd: root,
      stdio: 'inherit',
    });
    cwd = mkdtempSync(join(tmpdir(), 'slabdesk-built-'));
    mkdirSync(join(cwd, 'dist/page'), { recursive: true });
    writeFileSync(join(cwd, 'dist/page/index.html'), '<!doctype html><title>Slabdesk</title>');
    child = spawn(process.execPath, [join(outdir, 'server.js'), '--port', '0'], {
      cwd,
      env: {
        PATH: process.env.PATH,
        SLABDESK_SANDBOX_DB: ':memory:',
        SLABDESK_USERS_DB: join(cwd, 'users.db'),
        SLABDESK_ACTIVITY_DB: join(cwd, 'activity.db'),
        SLABDESK_LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    url = await urlOf(child);
  }, 60_000);
  afterAll(() => {
    child?.kill();
    rmSync(outdir, { recursive: true, force: true });
    if (cwd) rmSync(cwd, { recursive: true, force: true });
  });

  it('starts, serves the page and fills its replica from the embedded sandbox', async () => {
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    const page = await fetch(`${url}/listings`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>Slabdesk</title>');

    // The replica's fill runs the bundled client, governor and SQLite stores end to end.
    type Replica = { collections: Record<string, { rows: number; filled: boolean }> };
    const replica = async () => (await (await fetch(`${url}/hub/replica`)).json()) as Replica;
    await expect
      .poll(async () => Object.values((await replica()).collections).every((one) => one.filled), {
        timeout: 30_000,
      })
      .toBe(true);
    expect((await replica()).collections.listings?.rows).toBeGreaterThan(0);

    // A read through the proxy: its route schemas (zod through the type provider) and pacing.
    const listings = await fetch(`${url}/api/2026-07/listings.json?limit=5`);
    expect(listings.status).toBe(200);
    expect(((await listings.json()) as { listings: unknown[] }).listings).toHaveLength(5);
  }, 60_000);
});
