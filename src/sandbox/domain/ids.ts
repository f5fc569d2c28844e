import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
export const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Makes opaque ids such as `lst_8k2q...`, each character's index from `indices(length, size)`. */
function idSource(indices: (length: number, size: number) => Iterable<number>) {
  /** `length` characters from `alphabet`. */
  const chars = (length: number, alphabet = ALPHABET) =>
    Array.from(indices(length, alphabet.length), (i) => alphabet[i]).join('');
  return { id: (prefix: string) => `${prefix}_${chars(14)}`, chars };
}

export type IdSource = ReturnType<typeof idSource>;

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
