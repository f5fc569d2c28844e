import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAscii } from 'node:buffer';
import { asciiJson, asciiJsonText, asciiPage } from '../../src/shared/ascii-json';
import { startHarness, type Harness } from '../support/sandbox-harness';
import { addListings } from '../support/fixtures';

const bytes = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8');

describe('asciiJsonText and asciiPage', () => {
  const values: unknown[] = [
    { plain: 'ascii only', n: 1, list: [true, null] },
    { latin1: 'Pokémon Charizard', '’key': 'Dončić' },
    { bmp: 'Luka Dončić — 日本語 ’quoted’', edge: '\u0080\u07ff\u0800\uffff' },
    { astral: 'a 🃏 card 𝄞 and 😀', mixed: ['é', '🃏', 'x'] },
    { lone: 'half \ud83c of a pair', control: 'tab\tnew\nline "quoted" \\' },
  ];

  it('reads back as the same value and is ASCII byte for byte', () => {
    for (const value of values) {
      const text = asciiJsonText(value);
      expect(isAscii(Buffer.from(text, 'utf8'))).toBe(true);
      expect(JSON.parse(text)).toEqual(value);
    }
  });

  it('leaves ASCII-only JSON exactly as JSON.stringify writes it', () => {
    expect(asciiJsonText(values[0])).toBe(JSON.stringify(values[0]));
  });

  it('writes a page of rows as the ASCII bytes of the envelope holding them', () => {
    const page = asciiPage('listings', values);
    expect(isAscii(page)).toBe(true);
    expect(JSON.parse(page.toString('utf8'))).toEqual({ listings: values });
    // Exactly the rows' texts, comma-separated, in the envelope: no byte more or less.
    expect(page.toString('latin1')).toBe(`{"listings":[${values.map(asciiJsonText).join(',')}]}`);
    expect(asciiPage('one', [values[1]]).toString('latin1')).toBe(
      `{"one":[${asciiJsonText(values[1])}]}`,
    );
    expect(JSON.parse(asciiPage('orders', []).toString('utf8'))).toEqual({ orders: [] });
  });

  it('escapes a character as its UTF-16 unit(s): one for the BMP, a surrogate pair past it', () => {
    expect(asciiJsonText('č')).toBe('"\\u010d"');
    expect(asciiJsonText('é’')).toBe('"\\u00e9\\u2019"');
    expect(asciiJsonText('🃏')).toBe('"\\ud83c\\udccf"');
  });
});

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
    // Straight to the sandbox: the Prism run's validating proxy re-encodes what it passes on.
    const response = await fetch(`${h.url}/2026-07/listings.json?limit=250&fields=id,title`, {
      headers: { 'x-service-access-token': token },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const body = Buffer.from(await response.arrayBuffer());
    expect(isAscii(body)).toBe(true);
    const page = JSON.parse(body.toString('utf8')) as { listings: { title: string }[] };
    expect(page.listings.map((listing) => listing.title)).toEqual([
      'Luka Dončić — Pokémon 🃏 0',
      'Luka Dončić — Pokémon 🃏 1',
      'Luka Dončić — Pokémon 🃏 2',
    ]);
  });
});
