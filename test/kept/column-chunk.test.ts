import { describe, expect, it } from 'vitest';
import { decodeRows, encodeRows, type ColumnChunk } from '../../src/api/kept/column-chunk';

/** Encodes, passes the chunk through a structured copy (as IndexedDB does), decodes. */
function roundTrip(rows: unknown[]): { chunk: ColumnChunk; back: unknown[] } {
  const chunk = encodeRows(rows);
  if (!chunk) throw new Error('not encoded');
  const back: unknown[] = [];
  decodeRows(structuredClone(chunk), back);
  return { chunk, back };
}

/** Every key in order, at every depth. */
const keyOrder = (value: unknown): unknown =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? Object.entries(value).map(([key, inner]) => [key, keyOrder(inner)])
    : value;

const listing = (n: number) => ({
  id: `lst_${n}`,
  title: `1998 Pokémon Promo Pikachu #${n} PSA ${n % 10}`,
  status: n % 3 === 0 ? 'archived' : 'active',
  price: (n * 1.25).toFixed(2),
  card: { id: `itm_${n}`, grader: n % 2 ? 'PSA' : 'BGS', grade: String(n % 10), year: 1998 },
  is_lot: false,
  created_at: new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString(),
  listed_at: n % 7 === 0 ? null : new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString(),
  minimum_offer: n % 5 === 0 ? null : '10.00',
});

describe('rows kept as columns', () => {
  it('gives back 1,000 listings exactly, keys in order, values of every kind', () => {
    const rows = Array.from({ length: 1000 }, (_, n) => listing(n));
    const { chunk, back } = roundTrip(rows);
    expect(back).toEqual(rows);
    expect(back.map(keyOrder)).toEqual(rows.map(keyOrder));
    // Low-cardinality columns became dictionaries; ids and titles joined text.
    const columns = chunk.groups[0]!.columns;
    expect(chunk.groups).toHaveLength(1);
    expect(columns.filter((column) => 'd' in column).length).toBeGreaterThanOrEqual(5);
    expect(columns.filter((column) => 'j' in column).length).toBeGreaterThanOrEqual(3);
  });

  it('keeps rows of different shapes in their order (extras on some rows only)', () => {
    const rows: unknown[] = [];
    for (let n = 0; n < 300; n++) {
      const row: Record<string, unknown> = listing(n);
      if (n % 4 === 1) row.promoted = true;
      if (n % 9 === 2) delete row.minimum_offer;
      if (n % 11 === 3)
        row.card = { ...(row.card as object), variant: 'Base', extra: { a: [1, 2] } };
      rows.push(row);
    }
    const { chunk, back } = roundTrip(rows);
    expect(chunk.groups.length).toBeGreaterThan(1);
    expect(back).toEqual(rows);
    expect(back.map(keyOrder)).toEqual(rows.map(keyOrder));
  });

  it('holds the values text columns cannot: the separator, -0, undefined, arrays, empty objects', () => {
    const rows = Array.from({ length: 40 }, (_, n) => ({
      id: `row_${n}`,
      note: n === 5 ? 'a\u0001b' : `note ${n}`,
      amount: n === 7 ? -0 : n,
      maybe: n % 2 ? undefined : n,
      tags: n % 3 ? ['x', `t${n}`] : [],
      nested: {},
      1: 'an integer-like key',
    }));
    const { back } = roundTrip(rows);
    expect(back).toEqual(rows);
    expect(Object.is((back[7] as { amount: number }).amount, -0)).toBe(true);
    expect((back[5] as { note: string }).note).toBe('a\u0001b');
    expect(Object.keys(back[1] as object)).toEqual(Object.keys(rows[1]!));
    expect('maybe' in (back[1] as object)).toBe(true);
  });

  it('reuses a column that repeats an earlier one, row for row or but for a few rows', () => {
    const rows = Array.from({ length: 100 }, (_, n) => ({
      title: `Card ${n}`,
      card: { title: `Card ${n}` },
      created: `2026-01-01T00:00:${n}Z`,
      listed: n % 10 === 3 ? null : `2026-01-01T00:00:${n}Z`,
    }));
    const { chunk, back } = roundTrip(rows);
    const columns = chunk.groups[0]!.columns;
    expect(columns[1]).toEqual({ r: 0 });
    expect(columns[3]).toMatchObject({ r: 2, xv: Array.from({ length: 10 }, () => null) });
    expect(back).toEqual(rows);
  });

  it('keeps joined text one-byte: the few values beyond Latin-1, and nulls, are set apart', () => {
    const wide = /[\u0100-\uffff]/;
    const rows = Array.from({ length: 200 }, (_, n) => ({
      title: n % 50 === 7 ? `Luka Dončić #${n}` : `Pokémon Pikachu #${n}`,
      listed: n % 40 === 3 ? null : `2026-01-01T00:${n}Z`,
      japanese: `ピカチュウ ${n}`,
    }));
    const { chunk, back } = roundTrip(rows);
    const [title, listed, japanese] = chunk.groups[0]!.columns as { j: string; xv?: unknown[] }[];
    expect(wide.test(title!.j)).toBe(false);
    expect(title!.xv).toHaveLength(4);
    expect(listed!.xv).toEqual([null, null, null, null, null]);
    // Every row wide: one joined text all the same, no exceptions.
    expect(japanese!.j).toContain('ピカチュウ 199');
    expect(japanese!.xv).toBeUndefined();
    expect(back).toEqual(rows);
  });

  it('declines more rows than a chunk can number', () => {
    expect(encodeRows(Array.from({ length: 65_536 }, () => ({ a: 1 })))).toBeUndefined();
    expect(encodeRows(Array.from({ length: 65_535 }, () => ({ a: 1 })))).toBeDefined();
  });

  it('declines rows it cannot write back plainly (those are kept as they are)', () => {
    expect(encodeRows([JSON.parse('{"__proto__": {"x": 1}}')])).toBeUndefined();
    expect(encodeRows([new Date(0)])).toBeUndefined();
    expect(encodeRows(['text'])).toBeUndefined();
    const { back } = roundTrip([]);
    expect(back).toEqual([]);
  });
});
