import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/** Makes opaque ids such as `lst_8k2q...`; the seed passes its own random source to stay deterministic. */
export interface IdSource {
  id(prefix: string): string;
  /** `length` characters from `alphabet`. */
  chars(length: number, alphabet?: string): string;
}

export const randomIds: IdSource = {
  id(prefix) {
    return `${prefix}_${this.chars(14)}`;
  },
  chars(length, alphabet = ALPHABET) {
    const bytes = randomBytes(length);
    let out = '';
    for (const byte of bytes) out += alphabet[byte % alphabet.length];
    return out;
  },
};

/** A deterministic source for the demo seed: the same ids on every fresh start. */
export function seededIds(random: () => number): IdSource {
  return {
    id(prefix) {
      return `${prefix}_${this.chars(14)}`;
    },
    chars(length, alphabet = ALPHABET) {
      let out = '';
      for (let i = 0; i < length; i++) out += alphabet[Math.floor(random() * alphabet.length)];
      return out;
    },
  };
}

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
