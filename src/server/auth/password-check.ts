import type { UserRow } from './accounts-store';
import type { AuthContext } from './auth-context';
import type { HashingPriority } from './hashing-queue';
import { hashPassword, needsRehash, verifyAgainstDummy, verifyPassword } from './passwords';

export type PasswordVerdict =
  | { kind: 'busy' }
  | { kind: 'wrong' }
  /** `passwordHash`: the account's hash as stored now (a new one when it was rehashed). */
  | { kind: 'right'; passwordHash: string };

/**
 * Checks the password in its turn (a dummy check for a name without an account, so timing does
 * not tell); a right password under older hash parameters is hashed again under today's.
 */
export async function checkPassword(
  context: Pick<AuthContext, 'store' | 'hashing'>,
  user: UserRow | undefined,
  password: string,
  priority: HashingPriority,
): Promise<PasswordVerdict> {
  const outcome = await context.hashing.run(priority, async (): Promise<PasswordVerdict> => {
    if (!user) return (await verifyAgainstDummy(password), { kind: 'wrong' });
    if (!(await verifyPassword(password, user.passwordHash))) return { kind: 'wrong' };
    if (!needsRehash(user.passwordHash)) return { kind: 'right', passwordHash: user.passwordHash };
    const stronger = await hashPassword(password);
    // Compare-and-set: a password changed meanwhile by `npm run users` is not overwritten.
    const replaced = context.store.replaceHash(user.name, user.passwordHash, stronger);
    return { kind: 'right', passwordHash: replaced ? stronger : user.passwordHash };
  });
  return outcome.busy ? { kind: 'busy' } : outcome.value;
}
