import { isAscii } from 'node:buffer';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { asciiJson } from '../../src/server/ascii-json';
import { startAppServer } from '../../src/server/app-server';
import { distPages } from '../../src/server/dist-pages';

const bytes = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8');

describe('asciiJson', () => {
  it('writes every character past ASCII as its escape, and parses to the same value', () => {
    const value = {
      title: '2018 Panini Prizm Luka Dončić #144 PSA 10',
      set: 'Pokémon Base Set — 1st Edition 中文 ÿ Ā',
      note: 'a slab 😀 and a grin',
      price: '1250.00',
    };
    const out = asciiJson(bytes(value));
    expect(isAscii(out)).toBe(true);
    const text = out.toString('latin1');
    expect(text).toContain('Don\\u010di\\u0107');
    // Past U+FFFF: the UTF-16 surrogate pair, as JSON writes it.
    expect(text).toContain('\\ud83d\\ude00');
    expect(JSON.parse(text)).toEqual(value);
  });

  it('passes ASCII bodies, and bytes that are not well-formed UTF-8, on as they came', () => {
    const plain = bytes({ title: 'plain' });
    expect(asciiJson(plain)).toBe(plain);
    for (const broken of [
      Buffer.from([0x7b, 0x22, 0xc3]), // cut short
      Buffer.from([0x7b, 0xff, 0x7d]), // never a lead byte
      Buffer.from([0x22, 0xe2, 0x28, 0xa1, 0x22]), // a lead byte without its continuation
    ]) {
      expect(asciiJson(broken)).toBe(broken);
    }
  });
});

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
