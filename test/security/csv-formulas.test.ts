import { describe, expect, it } from 'vitest';
import { parseDelimited } from '../../src/features/listings/bulk-edit/logic/csv-reader';
import { restoreFormula, toCsv, toTsv } from '../../src/shared/delimited';
import { raw } from '../support/raw-http';
import { hubForFile, ownCall } from './auth-http';

/**
 * The finding "a show named `"=HYPERLINK(…)` runs in the books' spreadsheet": the formula guard
 * looked only at a cell's first character, so text a seller or a buyer wrote behind a quote or a
 * space (a reader that trims them, or strips the quote, runs what follows) reached the show
 * ledger's CSV, the activity CSV and the grid's copy as a live formula.
 */

/** Cells a spreadsheet would run once it drops leading spaces or quotes. */
const HIDDEN = [
  '"=HYPERLINK("http://evil.example","x")',
  "'=1+1",
  ' @SUM(A1)',
  '  -2+3',
  "\"+cmd|' /C calc'!A0",
  '\'"=2*3',
  '\u00a0=1+1',
  '＝1+1',
  '"\tTabbed',
];
/** Text a spreadsheet shows as it is: left alone. */
const PLAIN = ["'quoted", '"Quoted" card', '  spaced', 'A - B', '1999 Pokemon'];

/** A cell is safe when the spreadsheet sees it start with the apostrophe, as text. */
const guarded = (cell: string) => cell.startsWith("'");

describe('the formula guard', () => {
  it('guards a formula behind spaces or quotes, and reads each back as it was', () => {
    const [cells] = parseDelimited(toCsv([[...HIDDEN, ...PLAIN]]), ',');
    expect(cells!.slice(0, HIDDEN.length).filter((cell) => !guarded(cell))).toEqual([]);
    expect(cells!.slice(HIDDEN.length)).toEqual(PLAIN);
    expect(cells!.map(restoreFormula)).toEqual([...HIDDEN, ...PLAIN]);
    const copied = parseDelimited(toTsv([HIDDEN]), '\t')[0]!;
    expect(copied.filter((cell) => !guarded(cell))).toEqual([]);
  });
});

const hub = hubForFile();

const post = async (path: string, value: unknown) =>
  (await ownCall(hub.app, 'POST', path, value)).status;

describe('the show ledger’s CSV', () => {
  it('gives every text a seller or buyer wrote as text, however it starts', async () => {
    const key = 'formula-show-1';
    const [name, title, note, tradeTitle] = HIDDEN;
    expect(await post('/hub/shows', { key, name, date: '2026-11-28' })).toBe(201);
    const sale = {
      key: 'formula-sale-1',
      soldAt: '2026-11-28T15:20:00Z',
      listingId: 'lst_formula_1',
      title,
      price: '100.00',
      tenders: [
        { kind: 'other', amount: '40.00', note },
        { kind: 'trade', amount: '60.00', title: tradeTitle, certNumber: HIDDEN[4] },
      ],
      soldOnline: false,
      offMarket: 'deactivated',
    };
    expect(await post(`/hub/shows/${key}/entries`, sale)).toBe(201);

    const answer = await raw(hub.app.url, `/hub/shows/${key}/ledger.csv`);
    expect(answer.status).toBe(200);
    const [header, row] = parseDelimited(answer.body.replace(/^\uFEFF/, ''), ',');
    const cell = (column: string) => row![header!.indexOf(column)]!;
    for (const column of ['show', 'card', 'other paid by', 'traded card', 'traded card cert']) {
      expect(guarded(cell(column)), `${column}: ${cell(column)}`).toBe(true);
    }
    expect(cell('show')).toBe(`'${name}`);
    expect(cell('card')).toBe(`'${title!.trim()}`);
  });
});
