import { describe, expect, it, vi } from 'vitest';
import { HashingQueue } from '../../src/server/auth/passwords';
import { bodyRoleRefusal, setsInactiveStatus } from '../../src/server/auth/roles';
import { DEFAULT_LIMITS, KnownDevices, SignInSlowing } from '../../src/server/auth/sign-in-slowing';
import { testClock } from './auth-http';

describe('the hashing queue', () => {
  it('runs a few checks at once, known devices first, one slot always left to them, and turns the rest away', async () => {
    const queue = new HashingQueue({
      concurrent: 2,
      untrustedConcurrent: 1,
      waiting: { trusted: 2, untrusted: 2 },
    });
    const order: string[] = [];
    const gates = new Map<string, () => void>();
    const job = (name: string) => () =>
      new Promise<string>((resolve) => {
        order.push(name);
        gates.set(name, () => resolve(name));
      });
    const running = [
      queue.run('untrusted', job('u1')),
      queue.run('untrusted', job('u2')),
      queue.run('untrusted', job('u3')),
    ];
    expect(await queue.run('untrusted', job('u4'))).toEqual({ busy: true });
    // The second slot is free for a known device, however many strangers wait.
    const trusted = queue.run('trusted', job('t1'));
    await Promise.resolve();
    expect(order).toEqual(['u1', 't1']);
    const waiting = queue.run('trusted', job('t2'));
    gates.get('u1')!();
    await running[0];
    await vi.waitFor(() => expect(order).toEqual(['u1', 't1', 't2']));
    for (const name of ['t1', 't2']) gates.get(name)!();
    await Promise.all([trusted, waiting]);
    await vi.waitFor(() => expect(order).toEqual(['u1', 't1', 't2', 'u2']));
    gates.get('u2')!();
    await vi.waitFor(() => expect(order).toEqual(['u1', 't1', 't2', 'u2', 'u3']));
    gates.get('u3')!();
    expect(await Promise.all(running)).toEqual(
      ['u1', 'u2', 'u3'].map((value) => ({ busy: false, value })),
    );
  });
});

describe('known devices and sign-in slowing', () => {
  it('trusts a device cookie only for its account and password, and counts its failures apart', () => {
    const devices = new KnownDevices(Buffer.alloc(32, 7));
    const ann = { name: 'ann', passwordHash: 'h1' };
    const token = devices.issue(ann);
    const device = devices.deviceOf(token, ann);
    expect(device).toMatch(/^[0-9a-f]{32}$/);
    expect(devices.deviceOf(token, { name: 'ANN', passwordHash: 'h1' })).toBe(device);
    expect(devices.deviceOf(token, { name: 'bob', passwordHash: 'h1' })).toBeNull();
    expect(devices.deviceOf(token, { name: 'ann', passwordHash: 'h2' })).toBeNull(); // new password
    expect(new KnownDevices(Buffer.alloc(32, 8)).deviceOf(token, ann)).toBeNull();
    // One character changed inside the token (its last one may carry only padding bits).
    const at = token.length - 6;
    const other = token[at] === 'A' ? 'B' : 'A';
    expect(devices.deviceOf(`${token.slice(0, at)}${other}${token.slice(at + 1)}`, ann)).toBeNull();

    const clock = testClock();
    const slowing = new SignInSlowing({ ...DEFAULT_LIMITS, now: clock.now });
    for (let i = 0; i < 5; i++) {
      slowing.failed({ account: 'ann', address: `203.0.113.${i}`, device: null });
    }
    expect(
      slowing.retryAfterSeconds({ account: 'ann', address: '203.0.113.9', device: null }),
    ).toBe(DEFAULT_LIMITS.firstDelayMs / 1000);
    expect(slowing.retryAfterSeconds({ account: 'ann', address: '203.0.113.9', device })).toBe(0);
    // Her success at her device does not lift the strangers' slowing.
    slowing.succeeded({ account: 'ann', address: '198.51.100.1', device });
    expect(
      slowing.retryAfterSeconds({ account: 'ann', address: '203.0.113.9', device: null }),
    ).toBe(DEFAULT_LIMITS.firstDelayMs / 1000);
    // Where she signed in is a known address now: not slowed by the strangers either.
    const home = { account: 'ann', address: '198.51.100.1', device: null };
    expect(slowing.trust(home)).toBe('address');
    expect(slowing.retryAfterSeconds(home)).toBe(0);
  });
});

describe('deactivation by status', () => {
  it('is any status but active, in any body form, or a status key given twice', () => {
    for (const body of [
      '{"listing":{"status":"draft"}}',
      '{"listing":{"status":"archived"}}',
      '{"listing":{"status":null}}',
      '{"listing":{"Status":"draft"}}',
      '{"listing":{"svc_status":"draft"}}',
      '{"product":{"variants":[{"status":"draft"}]}}',
      '{"listing":{"status":"active","status":"draft"}}',
      '{"listing":{"status":"draft","status":"active"}}',
      '{"listing":{"st\\u0061tus":"draft"}}',
    ]) {
      expect(setsInactiveStatus(body), body).toBe(true);
    }
    // Nested 10,000 deep: refused as unreadable, without walking it.
    expect(setsInactiveStatus(`{"listing":${'['.repeat(10_000)}${']'.repeat(10_000)}}`)).toBe(true);
    for (const body of [
      '',
      '{"listing":{"price":"90.00"}}',
      '{"listing":{"status":"active","price":"90.00"}}',
      '{"listing":{"description":"\\"status\\": \\"draft\\""}}',
      'not json',
    ]) {
      expect(setsInactiveStatus(body), body).toBe(false);
    }
    const draft = '{"listing":{"status":"draft"}}';
    const path = '/api/2026-07/listings/1.json';
    expect(bodyRoleRefusal('editor', 'PUT', path, draft)).toMatch(/cannot deactivate/);
    expect(bodyRoleRefusal('editor', 'PUT', '/api/2026-07/PRODUCTS/1.json', draft)).toMatch(
      /cannot deactivate/,
    );
    expect(bodyRoleRefusal('owner', 'PUT', path, draft)).toBeNull();
    expect(bodyRoleRefusal('editor', 'PUT', '/api/2026-07/orders/1.json', draft)).toBeNull();
  });
});
