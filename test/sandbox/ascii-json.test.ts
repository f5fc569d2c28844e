import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asciiJson } from '../../src/sandbox/platform/ascii-json';
import { startHarness, type Harness } from '../support/sandbox-harness';
import { addListings } from '../support/fixtures';

const isAscii = (bytes: Uint8Array) => bytes.every((byte) => byte < 0x80);

describe('JSON written as ASCII', () => {
  const values: unknown[] = [
    { plain: 'ascii only', n: 1, list: [true, null] },
    { latin1: 'Pokémon Charizard', '’key': 'Dončić' },
    { bmp: 'Luka Dončić — 日本語 ’quoted’', edge: '\u0080\u07ff\u0800\uffff' },
    { astral: 'a 🃏 card 𝄞 and 😀', mixed: ['é', '🃏', 'x'] },
    { lone: 'half \ud83c of a pair', control: 'tab\tnew\nline "quoted" \\' },
  ];

  it('reads back as the same value and is ASCII byte for byte', () => {
    for (const value of values) {
      const bytes = asciiJson(value);
      expect(isAscii(bytes)).toBe(true);
      expect(JSON.parse(bytes.toString('utf8'))).toEqual(value);
    }
  });

  it('leaves ASCII-only JSON exactly as JSON.stringify writes it', () => {
    expect(asciiJson(values[0]).toString('latin1')).toBe(JSON.stringify(values[0]));
  });

  it('escapes a character as its UTF-16 unit(s): one for the BMP, a surrogate pair past it', () => {
    expect(asciiJson('č').toString('latin1')).toBe('"\\u010d"');
    expect(asciiJson('é’').toString('latin1')).toBe('"\\u00e9\\u2019"');
    expect(asciiJson('🃏').toString('latin1')).toBe('"\\ud83c\\udccf"');
  });
});

describe('collection pages over HTTP', () => {
  let h: Harness;
  let token: string;
  beforeAll(async () => {
    h = await startHarness({ rateLimit: false });
    const seller = await h.seller();
    token = seller.token;
    addListings(h.sandbox, seller.sellerId, 3, { titlePrefix: 'Luka Dončić — Pokémon 🃏' });
  });
  afterAll(() => h.close());

  it('are ASCII JSON whose parsed titles keep every character', async () => {
    const response = await h.api('/listings.json?limit=250&fields=id,title', { token });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(isAscii(bytes)).toBe(true);
    const body = JSON.parse(new TextDecoder().decode(bytes)) as { listings: { title: string }[] };
    expect(body.listings.map((listing) => listing.title)).toEqual([
      'Luka Dončić — Pokémon 🃏 0',
      'Luka Dončić — Pokémon 🃏 1',
      'Luka Dončić — Pokémon 🃏 2',
    ]);
  });
});
