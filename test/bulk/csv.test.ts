import { describe, expect, it } from 'vitest';
import { planBulkEdit } from '../../src/features/listings/bulk-edit/logic/diff';
import { CSV_COLUMNS, exportCsv, importCsv } from '../../src/features/listings/bulk-edit/logic/csv';
import { parseDelimited } from '../../src/features/listings/bulk-edit/logic/csv-reader';
import { restoreFormula, toCsv } from '../../src/shared/delimited';
import type { CatalogueRow } from '../../src/features/listings/catalogue/catalogue-row';
import { bulkRow } from './rows-fixture';

const catalogue = (rows: CatalogueRow[]) => new Map(rows.map((r) => [r.id, r]));

describe('CSV export', () => {
  it('writes every column, with a BOM and CRLF, quoting commas, quotes and line breaks', () => {
    const row = bulkRow({
      title: 'Jordan, Michael "MJ" 1986 Fleer',
      description: 'Line one\nLine two, with a comma',
    });
    const csv = exportCsv([row]);
    expect(csv.startsWith('\uFEFFid,title,status,')).toBe(true);
    expect(csv.endsWith('\r\n')).toBe(true);
    expect(csv).toContain('"Jordan, Michael ""MJ"" 1986 Fleer"');
    expect(csv).toContain('"Line one\nLine two, with a comma"');
    const [header, record] = parseDelimited(csv, ',');
    expect(header).toEqual([...CSV_COLUMNS]);
    expect(record![header!.indexOf('title')]).toBe(row.title);
    expect(record![header!.indexOf('description')]).toBe(row.description);
    expect(record![header!.indexOf('price')]).toBe('129.99');
  });

  it('neutralises cells a spreadsheet would run as formulas', () => {
    const csv = toCsv([
      ['=HYPERLINK("http://evil","x")', '+1', '-2', '@SUM(A1)', 'plain', "'quoted"],
    ]);
    const [cells] = parseDelimited(csv, ',');
    expect(cells).toEqual([
      '\'=HYPERLINK("http://evil","x")',
      "'+1",
      "'-2",
      "'@SUM(A1)",
      'plain',
      "'quoted",
    ]);
    expect(cells!.map(restoreFormula)).toEqual([
      '=HYPERLINK("http://evil","x")',
      '+1',
      '-2',
      '@SUM(A1)',
      'plain',
      "'quoted",
    ]);
  });

  it('round-trips: an exported file imports back to no change, formula-like titles included', () => {
    const rows = [
      bulkRow({ title: '=cmd|/C calc!A0', minimumOffer: '100.00' }),
      bulkRow({ title: 'Tab\tand "quotes", commas', description: 'multi\r\nline' }),
      bulkRow({
        status: 'archived',
        reason: 'deactivated_by_seller',
        offers: false,
      }),
    ];
    const imported = importCsv(exportCsv(rows), catalogue(rows));
    expect(imported.errors).toEqual([]);
    expect(imported.edits.map((e) => e.title)).toEqual(rows.map((r) => r.title));
    expect(imported.edits[1]!.description).toBe('multi\r\nline');
    const plan = planBulkEdit(imported.rows, imported.edits);
    expect(plan.items).toEqual([]);
    expect(plan.writes).toBe(0);
  });
});

describe('CSV import', () => {
  it('turns ids with new values into the same diff as the grid', () => {
    const a = bulkRow({ priceText: '100.00' });
    const b = bulkRow({ priceText: '50.00', trades: false });
    const text = ['id,price,accepts_trades', `${a.id},90,no`, `${b.id},"$1,000.50",yes`].join('\n');
    const imported = importCsv(text, catalogue([a, b]));
    expect(imported.errors).toEqual([]);
    const plan = planBulkEdit(imported.rows, imported.edits);
    expect(plan.items.map((i) => i.writes)).toEqual([
      [{ method: 'PUT', body: { price: '90.00' } }],
      [{ method: 'PUT', body: { price: '1000.50', accepts_trades: true } }],
    ]);
  });

  it('names every bad cell by row and column, and imports the good rows', () => {
    const a = bulkRow();
    const b = bulkRow();
    const c = bulkRow({ priceText: '100.00' });
    const sold = bulkRow({ status: 'archived', reason: 'sold' });
    const text = [
      'id,price,accepts_offers,status,duration_hours,minimum_offer,mystery',
      `${a.id},9.99,maybe,active,720,,x`,
      `${b.id},25.00,yes,paused,100,,x`,
      `${c.id},100,yes,active,720,120,x`,
      'lst_nope,20,yes,active,720,,x',
      `${a.id},20,yes,active,720,,x`,
      `${sold.id},20,yes,active,720,,x`,
      ',20,yes,active,720,,x',
    ].join('\r\n');
    const imported = importCsv(text, catalogue([a, b, c, sold]));
    expect(imported.errors).toEqual([
      { row: 2, column: 'price', message: 'must be at least 10.00' },
      { row: 2, column: 'accepts_offers', message: 'must be yes or no' },
      { row: 3, column: 'status', message: 'must be active, draft or inactive' },
      { row: 3, column: 'duration_hours', message: 'must be 168, 336, 504 or 720 hours' },
      { row: 4, column: 'minimum_offer', message: 'Minimum offer must be at most the price' },
      { row: 5, column: 'id', message: 'no listing lst_nope in the catalogue' },
      { row: 6, column: 'id', message: 'repeats row 2' },
      { row: 8, column: 'id', message: 'is empty' },
    ]);
    expect(imported.excluded).toEqual([
      { row: 7, id: sold.id, reason: 'sold: a sold listing cannot be changed' },
    ]);
    expect(imported.ignoredColumns).toEqual(['mystery']);
    expect(imported.edits).toEqual([]);
  });

  it('refuses a file without an id column', () => {
    expect(importCsv('price\n10', new Map()).errors).toEqual([
      { row: 1, column: 'id', message: 'the header has no id column' },
    ]);
  });

  it('counts rows as a spreadsheet does when a quoted cell spans lines', () => {
    const a = bulkRow();
    const b = bulkRow();
    const text = `id,description,price\n${a.id},"two\nlines",20\n${b.id},ok,abc\n`;
    const imported = importCsv(text, catalogue([a, b]));
    expect(imported.errors).toEqual([
      { row: 3, column: 'price', message: 'must be an amount like 125.00' },
    ]);
    expect(imported.edits[0]!.description).toBe('two\nlines');
  });
});

describe('CSV import on papaparse', () => {
  it('reads a semicolon file as European Excel writes it (BOM, decimal commas)', () => {
    const a = bulkRow();
    const b = bulkRow();
    const text = `\uFEFFid;title;price\r\n${a.id};"Jordan; 1986";129,99\r\n${b.id};Plain;45\r\n`;
    const imported = importCsv(text, catalogue([a, b]));
    expect(imported.delimiter).toBe(';');
    expect(imported.errors).toEqual([]);
    expect(imported.malformed).toEqual([]);
    expect(imported.edits.map((e) => [e.title, e.price])).toEqual([
      ['Jordan; 1986', '129.99'],
      ['Plain', '45.00'],
    ]);
  });

  it('reads a tab-separated file too', () => {
    const a = bulkRow();
    const imported = importCsv(`id\tprice\n${a.id}\t77.50\n`, catalogue([a]));
    expect(imported.delimiter).toBe('\t');
    expect(imported.edits[0]!.price).toBe('77.50');
  });

  it('reports every malformed row by row and line, and imports the rest', () => {
    const [a, b, c] = [bulkRow(), bulkRow(), bulkRow()];
    const text = [
      'id,description,price',
      `${a.id},"two`,
      `lines",20`,
      `${b.id},short`,
      `${c.id},too,many,cells`,
      `${b.id},fine,30`,
    ].join('\n');
    const imported = importCsv(text, catalogue([a, b, c]));
    expect(imported.malformed).toEqual([
      { row: 3, line: 4, message: 'has 2 cells where the header has 3' },
      { row: 4, line: 5, message: 'has 4 cells where the header has 3' },
    ]);
    expect(imported.edits.map((e) => [e.id, e.price])).toEqual([
      [a.id, '20.00'],
      [b.id, '30.00'],
    ]);
  });

  it('an unclosed quote is reported where it opens, never silently swallowing the file', () => {
    const [a, b] = [bulkRow(), bulkRow()];
    const text = `id,title,price\n${a.id},ok,20\n${b.id},"unclosed,30\n${a.id},lost,40\n`;
    const imported = importCsv(text, catalogue([a, b]));
    expect(imported.malformed).toEqual([
      {
        row: 3,
        line: 3,
        message:
          'a quote opened on this row is never closed, so the rest of the file (from line 3) could not be read',
      },
    ]);
    expect(imported.edits.map((e) => e.id)).toEqual([a.id]);
  });
});

describe('CSV import of a stranger’s header', () => {
  it('reads a header named as an inherited member (constructor, __proto__, toString) as an ignored column', () => {
    const a = bulkRow();
    const text = `id,constructor,__proto__,toString,price\n${a.id},x,y,z,42\n`;
    const imported = importCsv(text, catalogue([a]));
    expect(imported.errors).toEqual([]);
    expect(imported.ignoredColumns).toEqual(['constructor', '__proto__', 'tostring']);
    expect(imported.edits.map((e) => [e.id, e.price])).toEqual([[a.id, '42.00']]);
  });

  it('refuses a header that names a column twice, rather than guess which cell is meant', () => {
    const a = bulkRow({ priceText: '100.00' });
    for (const header of ['id,price,price', 'id,price,PRICE ', 'id,id,price']) {
      const imported = importCsv(`${header}\n${a.id},20,30\n`, catalogue([a]));
      const twice = header.startsWith('id,id') ? 'id' : 'price';
      expect(imported.errors).toEqual([
        { row: 1, column: twice, message: 'the header names this column twice' },
      ]);
      expect(imported.edits).toEqual([]);
    }
  });
});
