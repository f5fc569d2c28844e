import { AccountsStore } from '../../src/server/auth/accounts-store';
import { hashPassword } from '../../src/server/auth/passwords';
import type { Role } from '../../src/server/auth/roles';

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
      passwordHash: await hashPassword(account.password),
      createdAt: Date.now(),
    });
  }
  store.close();
  return path;
}
