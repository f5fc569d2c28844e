import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppServer, type RunningAppServer } from '../../src/server/app-server';
import { MAX_DELIVERY_BYTES, MAX_DELIVERY_READS } from '../../src/server/hub/webhook-receiver';

/**
 * Issue 41's finding on unauthenticated bodies: 300 × 1 MB posts to `/hub/webhooks` on the main
 * port were each read whole before anything was checked (RSS 124 → 415 MB). Each post here sends
 * its headers and a first slice of its body, then waits: it must be answered before it sends the
 * rest, which is what shows its body was never held. Failed on d7213af.
 */
const SECRET = 'svc_whsec_TheUnreadBodiesSuitesSecret000001';
const POSTS = 300;
const FIRST_SLICE = Buffer.alloc(16 * 1024, 0x20);
let app: RunningAppServer;

beforeAll(async () => {
  app = await startAppServer(
    {
      upstream: { baseUrl: 'http://127.0.0.1:9', apiKey: 'svc_live_unused' },
      port: 0,
      hub: { secrets: [SECRET] },
    },
    async () => ({
      development: false,
      register: async () => {},
      pageHtml: async () => '<!doctype html><title>t</title>',
    }),
  );
});

afterAll(async () => {
  await app?.close();
});

/**
 * Headers of a 1 MB post and its first slice, over a raw socket; resolves to the status answered
 * while the rest is still unsent, or 0 when none came within `waitMs`.
 */
function postAndHold(headers: Record<string, string>, waitMs: number): Promise<number> {
  const target = new URL(app.url);
  return new Promise((resolve) => {
    const socket = connect(Number(target.port), target.hostname);
    let text = '';
    const settle = (status: number) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(status);
    };
    const timer = setTimeout(() => settle(0), waitMs);
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      text += chunk;
      const status = /^HTTP\/1\.1 (\d{3})/.exec(text);
      if (status) settle(Number(status[1]));
    });
    socket.on('error', () => settle(text ? -1 : -2));
    socket.on('close', () => settle(-3));
    const head = Object.entries({
      host: target.host,
      'content-type': 'application/json',
      'content-length': String(MAX_DELIVERY_BYTES),
      'x-service-webhook-id': `evt_flood${Math.random().toString(36).slice(2)}`,
      'x-service-webhook-topic': 'orders/create',
      ...headers,
    })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.write(`POST /hub/webhooks HTTP/1.1\r\n${head}\r\n`);
    socket.write(FIRST_SLICE);
  });
}

const tally = (statuses: number[]) =>
  statuses.reduce<Record<number, number>>((counts, status) => {
    counts[status] = (counts[status] ?? 0) + 1;
    return counts;
  }, {});

describe('unauthenticated posts to /hub/webhooks on the main port', () => {
  it('300 unsigned 1 MB posts are refused 401 before their bodies are sent', async () => {
    const statuses = await Promise.all(
      Array.from({ length: POSTS }, () => postAndHold({}, 10_000)),
    );
    expect(tally(statuses)).toEqual({ 401: POSTS });
  });

  it('300 posts with a well-formed signature they cannot prove: at most a few bodies read at once, every other one answered before its body is sent', async () => {
    const t = Math.floor(Date.now() / 1000);
    const forged = { 'x-service-webhook-signature': `t=${t},v1=${'ab'.repeat(32)}` };
    const statuses = await Promise.all(
      Array.from({ length: POSTS }, () => postAndHold(forged, 12_000)),
    );
    // Cut off for a newer read (408 with Retry-After), or at the body deadline: never held whole.
    expect(tally(statuses)).toEqual({ 408: POSTS });
    expect(app.hub.reads.peak()).toBeLessThanOrEqual(MAX_DELIVERY_READS);
    expect(app.hub.reads.inUse()).toBe(0);
  });
});
