import { AccountsStore } from '../../src/server/auth/accounts-store';
import { hashPassword } from '../../src/server/auth/passwords';
import type { Role } from '../../src/server/auth/roles';

/**
 * scrypt at 1/128 of the real cost: each hash carries its parameters, so a sign-in checks at
 * this cost (the real one, 0.3 s of a core a check, is tested in auth-stores and auth-cli).
 */
const TEST_HASHING = { N: 2 ** 10, r: 8, p: 1 };

/** Writes a users file with these accounts, as `npm run users -- add` makes them. */
export async function writeUsersDb(
  path: string,
  accounts: readonly { name: string; role: Role; password: string }[],
): Promise<string> {
  const store = new AccountsStore(path);
  for (const account of accounts) {
    store.addUser({
      name: account.name,
      role: account.role,
      passwordHash: await hashPassword(account.password, TEST_HASHING),
      createdAt: Date.now(),
    });
  }
  store.close();
  return path;
}
