import { describe, expect, it } from 'vitest';
import { codeWords } from '../../src/lib/code-words';
import { humanize, zoneWords } from '../../src/lib/format';

describe('codes in the seller words', () => {
  it('names statuses, reasons and categories, and spells out a code it does not know', () => {
    expect(codeWords('archived')).toBe('Ended');
    expect(codeWords('deactivated_by_seller')).toBe('Ended by you');
    expect(codeWords('partially_refunded')).toBe('Partly refunded');
    expect(codeWords('pokemon')).toBe('Pokémon');
    expect(codeWords('yugioh')).toBe('Yu-Gi-Oh!');
    expect(codeWords('magic')).toBe('Magic: The Gathering');
    expect(codeWords('pulled_into_pack')).toBe('Pulled into pack');
    expect(codeWords('constructor')).toBe('Constructor');
    expect(humanize(undefined)).toBe('—');
  });

  it('names a time zone as a seller does, not by its IANA name', () => {
    expect(zoneWords('America/New_York')).toBe('Eastern Time');
    expect(zoneWords('Europe/Paris')).toBe('Central European Time');
  });
});
