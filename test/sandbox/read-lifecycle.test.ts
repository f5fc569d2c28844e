import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox';

const dir = mkdtempSync(join(tmpdir(), 'slabdesk-sandbox-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const token = 'svc_live_SlabdeskDemoLiveKey0000000000000001';

async function count(url: string): Promise<{ ids: string[]; title: string | undefined }> {
  const response = await fetch(`${url}/2026-07/listings.json?limit=250&fields=id,title`, {
    headers: { 'X-Service-Access-Token': token },
  });
  const body = (await response.json()) as { listings: { id: string; title: string }[] };
  return { ids: body.listings.map((l) => l.id), title: body.listings[0]?.title };
}

describe('the store across restarts', () => {
  it('keeps what it had in the file store, seeding only an empty store', async () => {
    const db = join(dir, 'keep.db');
    const first = await startSandbox({ port: 0, db, seed: 'demo', demoListings: 40 });
    const before = await count(first.url);
    first.context.store.listings.update(before.ids[0]!, {
      title: 'Changed before restart',
      updated_at: Date.now(),
    });
    await first.close();
    const second = await startSandbox({ port: 0, db, seed: 'demo', demoListings: 40 });
    const after = await count(second.url);
    expect(after.ids).toEqual(before.ids);
    expect(after.title).toBe('Changed before restart');
    await second.close();
  });

  it('is deterministic: two fresh demo stores hold the same ids', async () => {
    const a = await startSandbox({ port: 0, db: ':memory:', seed: 'demo', demoListings: 40 });
    const b = await startSandbox({ port: 0, db: ':memory:', seed: 'demo', demoListings: 40 });
    expect((await count(a.url)).ids).toEqual((await count(b.url)).ids);
    await Promise.all([a.close(), b.close()]);
  });

  it('leaves nothing behind with :memory:', async () => {
    const cwd = process.cwd();
    const sandboxDir = join(cwd, '.sandbox');
    const before = existsSync(sandboxDir) ? readdirSync(sandboxDir) : [];
    const s = await startSandbox({ port: 0, db: ':memory:', seed: 'none' });
    await s.close();
    const after = existsSync(sandboxDir) ? readdirSync(sandboxDir) : [];
    expect(after).toEqual(before);
  });

  it('resets to empty or to the demo through the control API', async () => {
    const s = await startSandbox({ port: 0, db: ':memory:', seed: 'demo', demoListings: 20 });
    const reset = await fetch(`${s.url}/_sandbox/reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(await reset.json()).toEqual({ ok: true });
    const gone = await fetch(`${s.url}/2026-07/ping`, {
      headers: { 'X-Service-Access-Token': token },
    });
    expect(gone.status).toBe(401);
    await fetch(`${s.url}/_sandbox/reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"seed":"demo"}',
    });
    expect((await count(s.url)).ids.length).toBeGreaterThan(0);
    await s.close();
  });
});

describe('npm run sandbox', () => {
  it('prints "listening on http://HOST:PORT", serves the API, and stops cleanly on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/sandbox/main.ts'], {
      env: {
        ...process.env,
        SANDBOX_PORT: '0',
        SANDBOX_DB: ':memory:',
        SANDBOX_SEED: 'demo',
        SANDBOX_DEMO_LISTINGS: '20',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no listening line: ${output}`)), 20_000);
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      });
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    });
    const ping = await fetch(`${url}/2026-07/ping`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(ping.status).toBe(200);
    const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
  });
});
