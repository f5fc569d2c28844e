import { expect, test } from '@playwright/test';
import { DEMO_LIVE_TOKEN } from '../../src/sandbox';

test('the key never reaches the browser: no response, header, URL or script carries it', async ({
  page,
}) => {
  const seen: string[] = [];
  const requests: string[] = [];
  page.on('request', (request) => {
    requests.push(`${request.url()} ${JSON.stringify(request.headers())}`);
  });
  page.on('response', async (response) => {
    const headers = JSON.stringify(await response.allHeaders());
    // Redirects and aborted responses have no body.
    const body = await response.text().catch(() => '');
    seen.push(`${response.url()} ${headers} ${body}`);
  });
  for (const path of ['/', '/listings', '/orders', '/inventory', '/locations', '/listings/new']) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
  }
  expect(seen.length).toBeGreaterThan(10);
  expect(seen.some((entry) => entry.includes('/api/2026-07/'))).toBe(true);
  const secret = DEMO_LIVE_TOKEN.slice('svc_live_'.length);
  expect(seen.filter((entry) => entry.includes(secret))).toEqual([]);
  expect(requests.filter((entry) => entry.includes(secret))).toEqual([]);
  expect(requests.filter((entry) => /x-service-access-token|authorization/i.test(entry))).toEqual(
    [],
  );
  const storage = await page.evaluate(
    () => JSON.stringify({ ...localStorage, ...sessionStorage }) + document.cookie,
  );
  expect(storage).not.toContain(secret);
});
