import { isAscii } from 'node:buffer';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startAppServer } from '../../src/server/app-server';
import { distPages } from '../../src/server/dist-pages';

describe('the API proxy', () => {
  it('hands the browser JSON in ASCII and any other body untouched', async () => {
    const value = { listings: [{ id: 'lst_1', title: 'Luka Dončić Silver Prizm 😀' }] };
    const upstream = createServer((req, res) => {
      if (req.url?.includes('text')) {
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
        res.end('Dončić');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(value));
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const app = await startAppServer(
      {
        upstream: {
          baseUrl: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
          apiKey: 'svc_live_ascii_test',
        },
        port: 0,
      },
      async () => distPages(mkdtempSync(join(tmpdir(), 'slabdesk-dist-'))),
    );
    try {
      const json = await fetch(`${app.url}/api/2026-07/listings.json`);
      const body = Buffer.from(await json.arrayBuffer());
      expect(isAscii(body)).toBe(true);
      expect(json.headers.get('content-type')).toMatch(/application\/json/);
      expect(JSON.parse(body.toString('utf8'))).toEqual(value);
      const text = await fetch(`${app.url}/api/2026-07/text.json`);
      expect(await text.text()).toBe('Dončić');
    } finally {
      await app.close();
      await new Promise((resolve) => upstream.close(resolve));
    }
  });
});
