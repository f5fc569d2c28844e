import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningAppServer } from '../../src/server/app-server';
import type { FaultProxy } from '../client/fault-proxy';
import { startAppOverLog, type AppOverLog } from '../support/app-over-log';
import { startHarness, type Harness } from '../support/sandbox-harness';

/**
 * The dashboard's proxy against hostile browser input: credentials in the query string in any
 * spelling never reach the upstream, and bodies are capped at the spec's limit. A logging proxy
 * between the app server and the sandbox records every URL that actually went upstream.
 */

let harness: Harness;
let served: AppOverLog;
let upstreamLog: FaultProxy;
let app: RunningAppServer;

beforeAll(async () => {
  harness = await startHarness({ rateLimit: false });
  const { token } = await harness.seller();
  served = await startAppOverLog(harness.url, token);
  ({ app, upstreamLog } = served);
});

afterAll(async () => {
  await served.close();
  await harness.close();
});

const sameOrigin = () => ({ 'sec-fetch-site': 'same-origin', origin: app.url });

describe('credentials in the query string', () => {
  const spellings = [
    'TOKEN',
    'Access_Token',
    'ACCESS_TOKEN',
    'x-service-access-token',
    'X_Service_Access_Token',
    'api-key',
    'access%5Ftoken',
    'page_note', // any name, when the value is a key
  ];
  for (const name of spellings) {
    it(`drops ${name}=svc_live_... before forwarding`, async () => {
      const before = upstreamLog.log.length;
      const res = await fetch(
        `${app.url}/api/2026-07/listings.json?${name}=svc_live_AttackerKey0000000000001&limit=2`,
        { headers: sameOrigin() },
      );
      expect(res.status).toBe(200);
      const sent = upstreamLog.log.slice(before).map((entry) => entry.url);
      expect(sent).toHaveLength(1);
      expect(sent[0]).not.toMatch(/svc_live_|token|api-key/i);
      // The documented parameter is kept.
      expect(sent[0]).toContain('limit=2');
    });
  }

  it('drops them from Link URLs as well', async () => {
    const res = await fetch(
      `${app.url}/api/2026-07/listings.json?limit=1&Api_Key=svc_test_AttackerKey000000000001`,
      { headers: sameOrigin() },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('link') ?? '').not.toMatch(/svc_|api_key/i);
  });
});

describe('request bodies', () => {
  const over = (bytes: number) =>
    JSON.stringify({ listing: { price: '20', description: 'x'.repeat(bytes) } });

  it("refuses a body over the spec's 1,048,576 bytes with 413 and max_bytes, sending nothing", async () => {
    const before = upstreamLog.log.length;
    const body = over(1_048_576);
    const res = await fetch(`${app.url}/api/2026-07/listings.json`, {
      method: 'POST',
      headers: { ...sameOrigin(), 'content-type': 'application/json' },
      body,
    });
    expect(res.status).toBe(413);
    const json = (await res.json()) as { svc_error: { code: string; max_bytes: number } };
    expect(json.svc_error).toMatchObject({ code: 'body_too_large', max_bytes: 1_048_576 });
    expect(upstreamLog.log.length).toBe(before);
  });

  it('forwards a body just under the cap to the API, which answers for itself', async () => {
    const body = over(1_048_576 - 100);
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(1_048_576);
    const res = await fetch(`${app.url}/api/2026-07/listings.json`, {
      method: 'POST',
      headers: { ...sameOrigin(), 'content-type': 'application/json' },
      body,
    });
    expect(res.status).toBe(422);
  });
});
