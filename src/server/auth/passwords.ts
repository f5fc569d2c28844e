import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** The shortest password an account may have (said in the CLI's error). */
export const MIN_PASSWORD_LENGTH = 10;
/** The longest: a password is hashed, and hashing a megabyte costs the server for nothing. */
export const MAX_PASSWORD_LENGTH = 1024;

export interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

/** OWASP's scrypt parameters; stored with each hash, so a hash made under older ones still checks. */
export const CURRENT_PARAMS: ScryptParams = { N: 2 ** 17, r: 8, p: 1 };
/** Hashes with more cost than this are refused: a forged row must not make one check eat memory. */
const MAX_N = 2 ** 20;
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

/** scrypt needs about 128·N·r bytes; twice that leaves room for its own bookkeeping. */
const memoryFor = (params: ScryptParams) => 2 * 128 * params.N * params.r * params.p;

function derive(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  const options: ScryptOptions = { ...params, maxmem: memoryFor(params) };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, options, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/** Why a password is refused, or null when it is acceptable. */
export function passwordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) {
    return `A password needs at least ${MIN_PASSWORD_LENGTH} characters.`;
  }
  if (password.length > MAX_PASSWORD_LENGTH) {
    return `A password may have at most ${MAX_PASSWORD_LENGTH} characters.`;
  }
  return null;
}

/** `scrypt$N=…,r=…,p=…$<salt>$<hash>` (base64): a fresh salt for every hash. */
export async function hashPassword(
  password: string,
  params: ScryptParams = CURRENT_PARAMS,
): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await derive(password, salt, params);
  const written = `N=${params.N},r=${params.r},p=${params.p}`;
  return `scrypt$${written}$${salt.toString('base64')}$${key.toString('base64')}`;
}

function parse(encoded: string) {
  const [scheme, params, salt, key] = encoded.split('$');
  const values = /^N=(\d+),r=(\d+),p=(\d+)$/.exec(params ?? '');
  if (scheme !== 'scrypt' || !values || !salt || !key) return null;
  const N = Number(values[1]);
  const r = Number(values[2]);
  const p = Number(values[3]);
  if (N > MAX_N || r > 32 || p > 4) return null;
  return {
    params: { N, r, p },
    salt: Buffer.from(salt, 'base64'),
    key: Buffer.from(key, 'base64'),
  };
}

/** Whether the hash was made under other parameters than today's (rehash it at the next sign-in). */
export function needsRehash(encoded: string): boolean {
  const stored = parse(encoded);
  if (!stored) return false;
  const { N, r, p } = stored.params;
  return N !== CURRENT_PARAMS.N || r !== CURRENT_PARAMS.r || p !== CURRENT_PARAMS.p;
}

/** Whether `password` matches the encoded hash, compared in constant time. */
export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  const stored = parse(encoded);
  if (!stored || stored.key.length === 0 || password.length > MAX_PASSWORD_LENGTH) return false;
  let key: Buffer;
  try {
    key = await derive(password, stored.salt, stored.params);
  } catch {
    return false;
  }
  return key.length === stored.key.length && timingSafeEqual(key, stored.key);
}

/**
 * A hash of no password under today's parameters: its key is random, so nothing matches it, and
 * checking against it costs what a real check costs (without hashing anything to make it).
 */
const DUMMY = `scrypt$N=${CURRENT_PARAMS.N},r=${CURRENT_PARAMS.r},p=${CURRENT_PARAMS.p}$${randomBytes(
  SALT_LENGTH,
).toString('base64')}$${randomBytes(KEY_LENGTH).toString('base64')}`;

/**
 * The work of a real check for a name without an account, so timing does not tell; always false.
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  await verifyPassword(password, DUMMY);
  return false;
}
