import { describe, expect, it } from 'vitest';
import { AccountsStore } from '../../src/server/auth/accounts-store';
import {
  checkPassword,
  hashPassword,
  HashingQueue,
  passwordProblem,
  verifyPassword,
} from '../../src/server/auth/passwords';
import { clientAddress, exposureReasons, overTls } from '../../src/server/auth/auth-gate';
import { AttemptLimiter, DEFAULT_LIMITS } from '../../src/server/auth/sign-in-slowing';
import { roleMay } from '../../src/server/auth/roles';
import type { IncomingMessage } from 'node:http';
import { safeNext } from '../../src/server/auth/sign-in-page';
import { hashSessionId, SessionBook } from '../../src/server/auth/accounts-store';
import { SIGN_IN_HEAVY_MS, testClock } from './auth-http';

describe('passwords', { timeout: SIGN_IN_HEAVY_MS }, () => {
  it('are hashed with scrypt, salted, and checked against their parameters', async () => {
    const one = await hashPassword('correct horse battery');
    const two = await hashPassword('correct horse battery');
    expect(one).not.toContain('correct horse battery');
    expect(one).not.toBe(two); // a fresh salt each time
    const [scheme, params, salt] = one.split('$');
    expect(scheme).toBe('scrypt');
    expect(params).toBe('N=131072,r=8,p=1');
    expect(Buffer.from(salt!, 'base64')).toHaveLength(16);
    expect(await verifyPassword('correct horse battery', one)).toBe(true);
    expect(await verifyPassword('correct horse batterY', one)).toBe(false);
    expect(await verifyPassword('anything', 'plain text')).toBe(false);
    const store = new AccountsStore(':memory:');
    const nobody = checkPassword({ store, hashing: new HashingQueue() }, undefined, 'x', 'trusted');
    expect(await nobody).toEqual({ kind: 'wrong' });
    store.close();
    expect(passwordProblem('123456789')).toMatch(/at least 10 characters/);
    expect(passwordProblem('1234567890')).toBeNull();
  });
});

describe('roles', () => {
  it('a role uses routes of its rank or below; public routes and pages are anyone’s', () => {
    for (const role of ['owner', 'editor', 'viewer'] as const) {
      expect(roleMay(role, 'public')).toBe(true);
      expect(roleMay(role, 'page')).toBe(true);
      expect(roleMay(role, 'viewer')).toBe(true);
    }
    expect(roleMay('editor', 'editor')).toBe(true);
    expect(roleMay('viewer', 'editor')).toBe(false);
    expect(roleMay('owner', 'owner')).toBe(true);
    expect(roleMay('editor', 'owner')).toBe(false);
    expect(roleMay('viewer', 'owner')).toBe(false);
  });
});

describe('the path after sign-in', () => {
  it('is a same-origin path only', () => {
    for (const bad of [
      '//evil.example',
      '/\\evil.example',
      '\\\\evil.example',
      'https://evil.example/',
      'http:evil.example',
      '/\n/evil.example',
      'evil.example',
      '/sign-in?next=//evil',
      '',
      null,
    ]) {
      expect(safeNext(bad), String(bad)).toBe('/');
    }
    expect(safeNext('/listings/42?tab=history')).toBe('/listings/42?tab=history');
    // Encoded slashes, dots and backslashes: a router or proxy that decodes them sees a host.
    expect(safeNext('/%2F%2Fevil.example')).toBe('/');
    expect(safeNext('/%2e%2e//evil.example')).toBe('/');
    expect(safeNext('/.//evil.example')).toBe('/');
    expect(safeNext('/listings/./42/../43')).toBe('/listings/43');
  });
});

describe('exposure', () => {
  it('is loopback with loopback names only; anything else or any deployment setting exposes', () => {
    expect(exposureReasons({ bindHost: '127.0.0.1' })).toEqual([]);
    expect(exposureReasons({ bindHost: '::1', allowedHosts: ['localhost:5173', '[::1]'] })).toEqual(
      [],
    );
    expect(exposureReasons({ bindHost: '0.0.0.0' })).toHaveLength(1);
    expect(exposureReasons({ bindHost: '192.168.1.20' })).toHaveLength(1);
    expect(exposureReasons({ bindHost: '127.0.0.1', allowedHosts: ['cards.example.com'] })).toEqual(
      ['answers to cards.example.com'],
    );
    expect(
      exposureReasons({ bindHost: '127.0.0.1', allowedHosts: ['cards.example.com:8443'] }),
    ).toHaveLength(1);
    for (const setting of [
      { publicUrl: 'https://cards.example.com' },
      { trustProxy: true },
      { webhookPort: 8788 },
      { requireSignIn: true },
    ]) {
      expect(exposureReasons({ bindHost: '127.0.0.1', ...setting })).toHaveLength(1);
    }
  });
});

describe('the attempt limiter', () => {
  it('stays bounded however many names are sprayed at it', () => {
    const clock = testClock();
    const limiter = new AttemptLimiter({ ...DEFAULT_LIMITS, maxEntries: 1000, now: clock.now });
    for (let i = 0; i < 20_000; i++) limiter.fail(`name-${i}`);
    expect(limiter.size()).toBeLessThanOrEqual(1000);
    // The most recent keys are kept, and still counted.
    for (let i = 0; i < 5; i++) limiter.fail('target');
    expect(limiter.retryAfterSeconds('target')).toBe(30);
    clock.advance(31_000);
    expect(limiter.retryAfterSeconds('target')).toBe(0);
    limiter.fail('target');
    expect(limiter.retryAfterSeconds('target')).toBe(60);
    limiter.clear('target');
    expect(limiter.retryAfterSeconds('target')).toBe(0);
  });
});

describe('sessions at rest', () => {
  it('keep only a hash of the id, and expired ones are purged', () => {
    const clock = testClock();
    const store = new AccountsStore(':memory:');
    store.addUser({ name: 'ann', role: 'owner', passwordHash: 'x', createdAt: clock.now() });
    const book = new SessionBook(store, { idleMinutes: 60, maxHours: 24, now: clock.now });
    const { id } = book.open('ann', { address: '127.0.0.1', userAgent: 'test' });
    expect(store.findSession(id)).toBeUndefined();
    expect(store.findSession(hashSessionId(id))?.userName).toBe('ann');
    book.open('ann', { address: '127.0.0.1', userAgent: 'test' });
    expect(store.countSessions('ann')).toBe(2);
    clock.advance(61 * 60_000);
    expect(book.purge()).toBe(2);
    expect(store.countSessions('ann')).toBe(0);
    store.close();
  });
});

describe('the client, as the server sees it', () => {
  const request = (headers: Record<string, string>, remoteAddress = '127.0.0.1') =>
    ({ headers, socket: { remoteAddress } }) as unknown as IncomingMessage;

  it('believes forwarding headers only behind a trusted proxy', () => {
    const forwarded = request({
      'x-forwarded-for': '10.0.0.1, 203.0.113.9',
      'x-forwarded-proto': 'https',
    });
    expect(clientAddress(forwarded, {})).toBe('127.0.0.1');
    expect(overTls(forwarded, {})).toBe(false);
    expect(clientAddress(forwarded, { trustProxy: true })).toBe('203.0.113.9');
    expect(overTls(forwarded, { trustProxy: true })).toBe(true);
    // A tunnel's own hop on this machine is skipped; garbage is not an address.
    const tunnelled = request({ 'x-forwarded-for': '203.0.113.9, 127.0.0.1, not-an-ip' });
    expect(clientAddress(tunnelled, { trustProxy: true })).toBe('203.0.113.9');
    expect(overTls(request({}), { publicUrl: 'https://cards.example.com' })).toBe(true);
    expect(overTls(request({}), { publicUrl: 'http://cards.example.com' })).toBe(false);
  });
});
