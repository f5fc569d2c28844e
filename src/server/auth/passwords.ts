import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { availableParallelism } from 'node:os';
import type { AccountsStore, UserRow } from './accounts-store';

export const MIN_PASSWORD_LENGTH = 10;
/** A password is hashed, and hashing a megabyte costs the server for nothing. */
const MAX_PASSWORD_LENGTH = 1024;

type ScryptParams = { N: number; r: number; p: number };

/** OWASP's scrypt parameters; stored with each hash, so a hash made under older ones still checks. */
const CURRENT_PARAMS: ScryptParams = { N: 2 ** 17, r: 8, p: 1 };
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

function derive(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  // scrypt needs about 128·N·r bytes; twice that leaves room for its own bookkeeping.
  const options = { ...params, maxmem: 2 * 128 * params.N * params.r * params.p };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, options, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

export const passwordProblem = (password: string): string | null =>
  password.length < MIN_PASSWORD_LENGTH
    ? `A password needs at least ${MIN_PASSWORD_LENGTH} characters.`
    : password.length > MAX_PASSWORD_LENGTH
      ? `A password may have at most ${MAX_PASSWORD_LENGTH} characters.`
      : null;

const paramsText = ({ N, r, p }: ScryptParams) => `scrypt$N=${N},r=${r},p=${p}$`;
const encode = (params: ScryptParams, salt: Buffer, key: Buffer) =>
  `${paramsText(params)}${salt.toString('base64')}$${key.toString('base64')}`;

/** `scrypt$N=…,r=…,p=…$<salt>$<hash>` (base64): a fresh salt for every hash. */
export async function hashPassword(password: string, params = CURRENT_PARAMS): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  return encode(params, salt, await derive(password, salt, params));
}

/** Whether `password` matches the encoded hash, compared in constant time. */
export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  const [scheme, params, saltText, keyText] = encoded.split('$');
  const values = /^N=(\d+),r=(\d+),p=(\d+)$/.exec(params ?? '');
  if (scheme !== 'scrypt' || !values || !saltText || !keyText) return false;
  const [N, r, p] = values.slice(1).map(Number) as [number, number, number];
  // More cost is refused: a forged row (or an over-long password) must not make one check eat memory.
  if (N > 2 ** 20 || r > 32 || p > 4 || password.length > MAX_PASSWORD_LENGTH) return false;
  const [salt, key] = [Buffer.from(saltText, 'base64'), Buffer.from(keyText, 'base64')];
  if (key.length === 0) return false;
  const derived = await derive(password, salt, { N, r, p }).catch(() => null);
  return !!derived && derived.length === key.length && timingSafeEqual(derived, key);
}

/** A hash of no password (its key is random): checking against it costs what a real check costs. */
const DUMMY = encode(CURRENT_PARAMS, randomBytes(SALT_LENGTH), randomBytes(KEY_LENGTH));

/** Known devices first. */
const PRIORITIES = ['trusted', 'untrusted'] as const;
type HashingPriority = (typeof PRIORITIES)[number];

/** Checks running at once, of those checks of unknown clients, and checks allowed to wait. */
const DEFAULT_HASHING = {
  concurrent: 2,
  // On one core, the only slot is shared; on more, one stays free for known devices.
  untrustedConcurrent: availableParallelism() > 1 ? 1 : 2,
  waiting: { trusted: 16, untrusted: 4 },
};

/** Password checks a few at a time (each costs much memory and CPU), known devices first. */
export class HashingQueue {
  private readonly running: Record<HashingPriority, number> = { trusted: 0, untrusted: 0 };
  private readonly lines: Record<HashingPriority, (() => void)[]> = { trusted: [], untrusted: [] };

  constructor(private readonly limits = DEFAULT_HASHING) {}

  /** Runs `work` when a slot is free; `{ busy: true }` at once when its priority's line is full. */
  async run<T>(
    priority: HashingPriority,
    work: () => Promise<T>,
  ): Promise<{ busy: false; value: T } | { busy: true }> {
    const line = this.lines[priority];
    if (line.length === 0 && this.mayStart(priority)) {
      this.running[priority] += 1;
    } else {
      if (line.length >= this.limits.waiting[priority]) return { busy: true };
      // The check that ends counts this one as running before it lets it go.
      await new Promise<void>((resolve) => line.push(resolve));
    }
    try {
      return { busy: false, value: await work() };
    } finally {
      this.running[priority] -= 1;
      const next = PRIORITIES.find((p) => this.lines[p].length > 0 && this.mayStart(p));
      if (next) {
        this.running[next] += 1;
        this.lines[next].shift()?.();
      }
    }
  }

  private mayStart(priority: HashingPriority): boolean {
    if (this.running.trusted + this.running.untrusted >= this.limits.concurrent) return false;
    return priority === 'trusted' || this.running.untrusted < this.limits.untrustedConcurrent;
  }
}

/** `passwordHash`: the account's hash as stored now (a new one when it was rehashed). */
type PasswordVerdict =
  { kind: 'busy' } | { kind: 'wrong' } | { kind: 'right'; passwordHash: string };

/** Checks in its turn (a name without an account against the dummy, so timing does not tell). */
export async function checkPassword(
  parts: { store: AccountsStore; hashing: HashingQueue },
  user: UserRow | undefined,
  password: string,
  priority: HashingPriority,
): Promise<PasswordVerdict> {
  const outcome = await parts.hashing.run(priority, async (): Promise<PasswordVerdict> => {
    if (!(await verifyPassword(password, user?.passwordHash ?? DUMMY)) || !user) {
      return { kind: 'wrong' };
    }
    // A right password under other parameters than today's is hashed again under today's.
    if (user.passwordHash.startsWith(paramsText(CURRENT_PARAMS))) {
      return { kind: 'right', passwordHash: user.passwordHash };
    }
    const stronger = await hashPassword(password);
    // Compare-and-set: a password changed meanwhile by `npm run users` is not overwritten.
    const replaced = parts.store.replaceHash(user.name, user.passwordHash, stronger);
    return { kind: 'right', passwordHash: replaced ? stronger : user.passwordHash };
  });
  return outcome.busy ? { kind: 'busy' } : outcome.value;
}
