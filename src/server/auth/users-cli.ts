import { parseArgs } from 'node:util';
import { AccountsStore, NAME_PATTERN } from './accounts-store';
import { DEFAULT_USERS_DB } from './auth-options';
import { hashPassword, MIN_PASSWORD_LENGTH, passwordProblem } from './passwords';
import { readPassword } from './read-password';
import { isRole, ROLES } from './roles';

/** A failure the person at the terminal can fix; `code` is the exit status. */
class CliError extends Error {
  constructor(
    message: string,
    readonly code = 1,
  ) {
    super(message);
  }
}

const USAGE = `Usage: npm run users -- <command>

  add NAME --role owner|editor|viewer   add an account (password read from standard input)
  passwd NAME                           set a new password (ends the account's sessions)
  remove NAME                           remove the account (ends its sessions)
  list                                  the accounts, their roles and open sessions

Names: letters, digits, '.', '_' and '-', at most 40. Passwords: at least ${MIN_PASSWORD_LENGTH} characters.
On a terminal the password is asked twice, hidden; piped, the first line is read:
  printf '%s\\n' "$PASSWORD" | npm run users -- add ann --role owner
Accounts are kept in SLABDESK_USERS_DB (default ${DEFAULT_USERS_DB}).`;

function nameOf(positionals: string[]): string {
  const name = positionals[1];
  if (!name) throw new CliError(`A NAME is needed.\n\n${USAGE}`, 2);
  if (!NAME_PATTERN.test(name)) {
    throw new CliError(
      `"${name}" is not a valid name: use letters, digits, '.', '_' and '-' (at most 40).`,
      2,
    );
  }
  return name;
}

async function newPassword(): Promise<string> {
  const password = await readPassword(process.stdin, process.stderr, 'New password');
  const problem = passwordProblem(password);
  if (problem) throw new CliError(`${problem} Nothing was changed.`);
  return password;
}

async function run(argv: string[], store: () => AccountsStore): Promise<string> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { role: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  const command = positionals[0];
  if (values.help || !command) return USAGE;
  switch (command) {
    case 'add': {
      const name = nameOf(positionals);
      if (!isRole(values.role)) {
        throw new CliError(`--role must be one of ${ROLES.join(', ')}.`, 2);
      }
      if (store().findUser(name)) {
        throw new CliError(`"${name}" has an account already (npm run users -- passwd ${name}).`);
      }
      const passwordHash = await hashPassword(await newPassword());
      const added = store().addUser({
        name,
        role: values.role,
        passwordHash,
        createdAt: Date.now(),
      });
      if (!added) throw new CliError(`"${name}" has an account already.`);
      return `Added ${name} (${values.role}).`;
    }
    case 'passwd': {
      const name = nameOf(positionals);
      if (!store().findUser(name)) throw new CliError(`There is no account "${name}".`);
      const passwordHash = await hashPassword(await newPassword());
      store().setPassword(name, passwordHash);
      return `New password for ${name}; their sessions have ended.`;
    }
    case 'remove': {
      const name = nameOf(positionals);
      if (!store().removeUser(name)) throw new CliError(`There is no account "${name}".`);
      return `Removed ${name}; their sessions have ended.`;
    }
    case 'list': {
      const users = store().listUsers();
      if (users.length === 0) return 'No accounts yet: npm run users -- add NAME --role owner';
      const rows = [
        ['NAME', 'ROLE', 'CREATED', 'SESSIONS'],
        ...users.map((user) => [
          user.name,
          user.role,
          new Date(user.createdAt).toISOString().slice(0, 16).replace('T', ' '),
          String(user.sessions),
        ]),
      ];
      const widths = rows[0]!.map((_, column) =>
        Math.max(...rows.map((row) => row[column]!.length)),
      );
      return rows
        .map((row) =>
          row
            .map((cell, column) => cell.padEnd(widths[column]!))
            .join('  ')
            .trimEnd(),
        )
        .join('\n');
    }
    default:
      throw new CliError(`Unknown command "${command}".\n\n${USAGE}`, 2);
  }
}

/** `npm run users -- add|passwd|remove|list`: the accounts of an exposed server. */
async function main(): Promise<void> {
  let store: AccountsStore | undefined;
  const open = () =>
    (store ??= new AccountsStore(process.env.SLABDESK_USERS_DB?.trim() || DEFAULT_USERS_DB));
  try {
    console.log(await run(process.argv.slice(2), open));
  } catch (error) {
    const code = error instanceof CliError ? error.code : error instanceof TypeError ? 2 : 1;
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = code;
  } finally {
    store?.close();
  }
}

await main();
