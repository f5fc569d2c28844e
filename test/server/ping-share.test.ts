import { beforeAll, describe, expect, it } from 'vitest';
import { PING_SHARED_MS, PingShare } from '../../src/server/ping-share';
import { useDemoHub } from '../support/demo-hub';

/** The tabs' and devices' pings within a minute of one the marketplace answered ask it once. */
const demo = useDemoHub({
  demoListings: 20,
  rateLimit: false,
  server: { replica: { fill: 'when-read' } },
});
let pings = 0;
beforeAll(() => {
  demo.harness.sandbox.app.server.on('request', (request) => {
    if ((request.url ?? '').startsWith('/2026-07/ping')) pings++;
  });
});

const ping = async () => {
  const answer = await fetch(`${demo.server.url}/api/2026-07/ping`);
  return {
    status: answer.status,
    age: answer.headers.get('x-slabdesk-ping-age'),
    body: (await answer.json()) as { ping: { ok: boolean; server_time: string; key_id: string } },
  };
};

describe('a shared ping', () => {
  it('asks the marketplace once for the reloads of a minute, its server time moving on', async () => {
    const before = pings;
    const first = await ping();
    expect(first.status).toBe(200);
    expect(first.age).toBeNull();
    const second = await ping();
    const third = await ping();
    expect(pings - before).toBe(1);
    for (const again of [second, third]) {
      expect(again.status).toBe(200);
      expect(again.age).toBe('0');
      expect(again.body.ping.key_id).toBe(first.body.ping.key_id);
      expect(Date.parse(again.body.ping.server_time)).toBeGreaterThanOrEqual(
        Date.parse(first.body.ping.server_time),
      );
    }
  });

  it('is given for a minute only, and never after a refusal', () => {
    let now = 1_000_000;
    const share = new PingShare(() => now);
    const body = Buffer.from(
      JSON.stringify({ ping: { ok: true, server_time: '2026-07-01T00:00:00.000Z' } }),
    );
    share.note(200, body);
    now += 30_000;
    const given = share.answer();
    expect(given?.ageSeconds).toBe(30);
    const moved = JSON.parse(given!.body.toString('latin1')) as { ping: { server_time: string } };
    expect(moved.ping.server_time).toBe('2026-07-01T00:00:30.000Z');
    now += PING_SHARED_MS;
    expect(share.answer()).toBeUndefined();
    // Any call of the key answered well since keeps it given (within the quarter hour).
    let answeredOk = now - 1000;
    const renewed = new PingShare(
      () => now,
      () => answeredOk,
    );
    renewed.note(200, body);
    now += 10 * 60_000;
    answeredOk = now - 5_000;
    expect(renewed.answer()?.ageSeconds).toBe(600);
    now += 6 * 60_000;
    answeredOk = now;
    expect(renewed.answer()).toBeUndefined();
    share.note(200, body);
    share.forget();
    expect(share.answer()).toBeUndefined();
    share.note(401, Buffer.from('{}'));
    expect(share.answer()).toBeUndefined();
  });
});
