import { describe, expect, it } from 'vitest';
import { parseCell } from '../../src/features/listings/bulk-edit/logic/cells';
import {
  parseDelimited,
  parsePastedBlock,
} from '../../src/features/listings/bulk-edit/logic/csv-reader';
import { toTsv } from '../../src/shared/delimited';

describe('pasting a block from a spreadsheet', () => {
  it('splits tabs and lines and drops the trailing line break', () => {
    expect(parsePastedBlock('a\tb\r\nc\td\r\n')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    expect(parsePastedBlock('116.99\n45.00\n')).toEqual([['116.99'], ['45.00']]);
    expect(parsePastedBlock('one cell')).toEqual([['one cell']]);
    expect(parsePastedBlock('')).toEqual([]);
  });

  it('keeps quoted cells with line breaks, tabs and doubled quotes whole', () => {
    const block = '"first line\nsecond line"\t12\n"a\ttab"\t"say ""hi"""\n';
    expect(parsePastedBlock(block)).toEqual([
      ['first line\nsecond line', '12'],
      ['a\ttab', 'say "hi"'],
    ]);
  });

  it('keeps empty cells and pads ragged rows', () => {
    expect(parsePastedBlock('a\t\tc\nd\n')).toEqual([
      ['a', '', 'c'],
      ['d', '', ''],
    ]);
  });

  it('reads a block of more lines than a call takes arguments (a whole column pasted), never throwing', () => {
    const lines = Array.from({ length: 200_000 }, (_, i) => (i === 7 ? '1\t2' : String(i)));
    const block = parsePastedBlock(`${lines.join('\n')}\n`);
    expect(block).toHaveLength(200_000);
    expect(block[7]).toEqual(['1', '2']);
    expect(block[199_999]).toEqual(['199999', '']);
  });

  it('round-trips what the grid copies', () => {
    const block = [
      ['Title, with "quotes"', 'multi\nline'],
      ['x', ''],
    ];
    expect(parsePastedBlock(toTsv(block))).toEqual(block);
  });

  it("neutralises formulas in the grid's copy as the CSV export does, and reads them back as text", () => {
    const block = [
      ['=HYPERLINK("https://evil.example","Click")'],
      ['+1+1'],
      ['-2+3'],
      ['@SUM(A1)'],
      ['\tTabbed'],
      ['\rReturn'],
      ['plain'],
    ];
    const copied = toTsv(block);
    const cells = parseDelimited(copied, '\t').map((r) => r[0]!);
    // Every cell a spreadsheet would run starts with an apostrophe on the clipboard.
    expect(cells.slice(0, 6).every((cell) => cell.startsWith("'"))).toBe(true);
    expect(cells[6]).toBe('plain');
    expect(copied).not.toMatch(/(^|\n)"?[=+\-@]/);
    // Pasted back into the grid, each is the text it was.
    expect(parsePastedBlock(copied)).toEqual(block);
  });

  it('reads each cell as its column: amounts, switches, status, duration', () => {
    expect(parseCell('price', ' $1,250 ')).toEqual({ ok: true, value: '1250.00' });
    expect(parseCell('price', '12.345')).toEqual({ ok: true, value: '12.345' }); // the schema marks it
    expect(parseCell('minimumOffer', '')).toEqual({ ok: true, value: '' });
    expect(parseCell('acceptsOffers', 'TRUE')).toEqual({ ok: true, value: true });
    expect(parseCell('acceptsTrades', 'no')).toEqual({ ok: true, value: false });
    expect(parseCell('autoRelist', 'perhaps')).toEqual({ ok: false, message: 'must be yes or no' });
    expect(parseCell('status', 'Archived')).toEqual({ ok: true, value: 'inactive' });
    expect(parseCell('durationHours', '336 h')).toEqual({ ok: true, value: '336' });
    expect(parseCell('durationHours', '100')).toMatchObject({ ok: false });
    expect(parseCell('title', '  spaced  ')).toEqual({ ok: true, value: '  spaced  ' });
  });
});
