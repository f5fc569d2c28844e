import { parseAmount } from '../../../../client/listing-rules';
import { formatCents } from '../../../../shared/money';
import type { Parsed } from '../../../../shared/price-math';
import { DURATIONS, type EditField, type EditStatus, type EditValues } from './rows';

export type CellValue = EditValues[EditField];

/** A cell that knows its words only: each word's value, blank's value (if blank is allowed). */
const words =
  <T>(values: Record<string, T>, message: string, blank?: T) =>
  (text: string): Parsed<T> => {
    const word = text.trim().toLowerCase();
    if (word === '' && blank !== undefined) return { ok: true, value: blank };
    const known = new Map(Object.entries(values));
    return known.has(word) ? { ok: true, value: known.get(word)! } : { ok: false, message };
  };

const YES = ['yes', 'y', 'true', 'on', '1', '✓', 'x'].map((word) => [word, true] as const);
const NO = ['no', 'n', 'false', 'off', '0'].map((word) => [word, false] as const);

/** Yes or no; a blank cell is null: leave the term unchanged. */
export const parseYesNo = words<boolean | null>(
  Object.fromEntries([...YES, ...NO]),
  'must be yes or no',
  null,
);

const parseStatus = words<EditStatus>(
  {
    active: 'active',
    draft: 'draft',
    inactive: 'inactive',
    archived: 'inactive',
    deactivated: 'inactive',
  },
  'must be active, draft or inactive',
);

const durationWords = words(
  Object.fromEntries(DURATIONS.map((hours) => [hours, hours])),
  'must be 168, 336, 504 or 720 hours',
);
const parseDuration = (text: string): Parsed<CellValue> =>
  text.trim() === ''
    ? { ok: true, value: '' }
    : durationWords(text.trim().replace(/\s*(h|hours?)$/i, ''));

/** An amount in the API's form (`$1,250` → `1250.00`); text it cannot read is left for the row schema. */
function parseMoney(text: string): Parsed<CellValue> {
  const trimmed = text.trim();
  const parsed = parseAmount(trimmed);
  return { ok: true, value: trimmed === '' || !parsed.ok ? trimmed : formatCents(parsed.value) };
}

const asText = (text: string): Parsed<CellValue> => ({ ok: true, value: text });

const PARSERS: Record<EditField, (text: string) => Parsed<CellValue>> = {
  title: asText,
  price: parseMoney,
  minimumOffer: parseMoney,
  acceptsOffers: parseYesNo,
  acceptsTrades: parseYesNo,
  autoRelist: parseYesNo,
  status: parseStatus,
  durationHours: parseDuration,
  description: asText,
};

/** Reads a cell's text into the form's value, by its column. */
export const parseCell = (field: EditField, text: string): Parsed<CellValue> =>
  PARSERS[field](text);

/** A cell's value as text (for copy, fill and export). */
export const cellText = (value: CellValue): string =>
  typeof value === 'boolean' ? (value ? 'yes' : 'no') : (value ?? '');
