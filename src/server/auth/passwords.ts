import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** The shortest password an account may have (said in the CLI's error). */
export const MIN_PASSWORD_LENGTH = 10;
/** The longest: a password is hashed, and hashing a megabyte costs the server for nothing. */
export const MAX_PASSWORD_LENGTH = 1024;

/** scrypt's cost (memory-hard), stored with each hash so the parameters can rise later. */
const PARAMS = { N: 2 ** 15, r: 8, p: 1 };
const MAX_MEMORY = 64 * 1024 * 1024;
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

function derive(password: string, salt: Buffer, params: typeof PARAMS): Promise<Buffer> {
  const options: ScryptOptions = { ...params, maxmem: MAX_MEMORY };
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

/** `scrypt$N=32768,r=8,p=1$<salt>$<hash>` (base64): a fresh salt for every hash. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await derive(password, salt, PARAMS);
  const params = `N=${PARAMS.N},r=${PARAMS.r},p=${PARAMS.p}`;
  return `scrypt$${params}$${salt.toString('base64')}$${key.toString('base64')}`;
}

function parse(encoded: string) {
  const [scheme, params, salt, key] = encoded.split('$');
  const values = /^N=(\d+),r=(\d+),p=(\d+)$/.exec(params ?? '');
  if (scheme !== 'scrypt' || !values || !salt || !key) return null;
  return {
    params: { N: Number(values[1]), r: Number(values[2]), p: Number(values[3]) },
    salt: Buffer.from(salt, 'base64'),
    key: Buffer.from(key, 'base64'),
  };
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

let dummy: Promise<string> | undefined;

/**
 * The work of a real check for a name without an account, so timing does not tell; always false.
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummy ??= hashPassword(randomBytes(18).toString('base64'));
  await verifyPassword(password, await dummy);
  return false;
}
