import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
export const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Makes opaque ids such as `lst_8k2q...`; the seed passes its own random source to stay deterministic. */
export interface IdSource {
  id(prefix: string): string;
  /** `length` characters from `alphabet`. */
  chars(length: number, alphabet?: string): string;
}

/** An id source drawing each character's index from `indices(length, alphabetSize)`. */
function idSource(indices: (length: number, size: number) => Iterable<number>): IdSource {
  const chars = (length: number, alphabet = ALPHABET) =>
    Array.from(indices(length, alphabet.length), (i) => alphabet[i]).join('');
  return { id: (prefix) => `${prefix}_${chars(14)}`, chars };
}

export const randomIds = idSource((length, size) => randomBytes(length).map((byte) => byte % size));

/** A deterministic source for the demo seed: the same ids on every fresh start. */
export const seededIds = (random: () => number): IdSource =>
  idSource((length, size) => Array.from({ length }, () => Math.floor(random() * size)));

/** mulberry32: a small, fast, seedable PRNG. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
