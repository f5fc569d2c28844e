import { parseAmount } from '../../../../client/listing-rules';
import { formatCents } from '../../../../shared/money';
import {
  DURATIONS,
  type DurationText,
  type EditField,
  type EditStatus,
  type EditValues,
} from './rows';

export type CellValue = EditValues[EditField];
export type CellParse = { ok: true; value: CellValue } | { ok: false; message: string };

const TRUE_WORDS = new Set(['yes', 'y', 'true', 'on', '1', '✓', 'x']);
const FALSE_WORDS = new Set(['no', 'n', 'false', 'off', '0']);

/** Yes or no; a blank cell is null: leave the term unchanged. */
export function parseYesNo(
  text: string,
): { ok: true; value: boolean | null } | { ok: false; message: string } {
  const word = text.trim().toLowerCase();
  if (word === '') return { ok: true, value: null };
  if (TRUE_WORDS.has(word)) return { ok: true, value: true };
  if (FALSE_WORDS.has(word)) return { ok: true, value: false };
  return { ok: false, message: 'must be yes or no' };
}

export function parseStatus(
  text: string,
): { ok: true; value: EditStatus } | { ok: false; message: string } {
  const word = text.trim().toLowerCase();
  if (word === 'active' || word === 'draft') return { ok: true, value: word };
  if (word === 'inactive' || word === 'archived' || word === 'deactivated') {
    return { ok: true, value: 'inactive' };
  }
  return { ok: false, message: 'must be active, draft or inactive' };
}

export function parseDuration(
  text: string,
): { ok: true; value: DurationText | '' } | { ok: false; message: string } {
  if (text.trim() === '') return { ok: true, value: '' };
  const word = text
    .trim()
    .toLowerCase()
    .replace(/\s*(h|hours?)$/, '');
  return (DURATIONS as readonly string[]).includes(word)
    ? { ok: true, value: word as DurationText }
    : { ok: false, message: 'must be 168, 336, 504 or 720 hours' };
}

/**
 * Reads a cell's text into the form's value: text as is (the row schema judges it), an amount in
 * the API's form (`$1,250` → `1250.00`); switches, status and duration know their words only.
 */
export function parseCell(field: EditField, text: string): CellParse {
  switch (field) {
    case 'acceptsOffers':
    case 'acceptsTrades':
    case 'autoRelist':
      return parseYesNo(text);
    case 'status':
      return parseStatus(text);
    case 'durationHours':
      return parseDuration(text);
    case 'price':
    case 'minimumOffer': {
      const trimmed = text.trim();
      if (trimmed === '') return { ok: true, value: '' };
      const parsed = parseAmount(trimmed);
      return { ok: true, value: parsed.ok ? formatCents(parsed.value) : trimmed };
    }
    case 'title':
    case 'description':
      return { ok: true, value: text };
  }
}

/** A cell's value as text (for copy, fill and export). */
export function cellText(field: EditField, value: CellValue): string {
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (value === null || value === undefined) return '';
  if (field === 'durationHours') return String(value);
  return String(value);
}
