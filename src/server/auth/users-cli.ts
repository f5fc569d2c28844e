import { Writable, type Readable } from 'node:stream';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { AccountsStore, DEFAULT_USERS_DB, NAME_PATTERN } from './accounts-store';
import { hashPassword, MIN_PASSWORD_LENGTH, passwordProblem } from './passwords';
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

/** The first line of a piped standard input (`printf 'pw\n' | npm run users -- ...`). */
async function readFirstLine(input: Readable): Promise<string> {
  for await (const line of createInterface({ input, crlfDelay: Infinity })) return line;
  return '';
}

/** A line typed on a terminal without echoing it (Ctrl-C or Ctrl-D gives up). */
function askHidden(prompt: string): Promise<string> {
  process.stderr.write(prompt);
  // readline reads and edits the line in raw mode; its echo goes nowhere.
  const output = new Writable({ write: (_chunk, _encoding, done) => done() });
  const lines = createInterface({ input: process.stdin, output, terminal: true });
  return new Promise<string>((resolve, reject) => {
    const cancel = () => reject(new CliError('Cancelled.'));
    lines.once('line', resolve).once('SIGINT', cancel).once('close', cancel);
  }).finally(() => {
    lines.close();
    process.stderr.write('\n');
  });
}

/** Asked twice without echo on a terminal, else the input's first line; never an argument. */
async function newPassword(): Promise<string> {
  const { isTTY } = process.stdin;
  const password = await (isTTY ? askHidden('New password: ') : readFirstLine(process.stdin));
  if (isTTY && (await askHidden('New password again: ')) !== password) {
    throw new CliError('The two passwords differ; nothing was changed.');
  }
  const problem = passwordProblem(password);
  if (problem) throw new CliError(`${problem} Nothing was changed.`);
  return hashPassword(password);
}

function nameOf(name: string | undefined): string {
  if (!name) throw new CliError(`A NAME is needed.\n\n${USAGE}`, 2);
  if (NAME_PATTERN.test(name)) return name;
  const rule = "use letters, digits, '.', '_' and '-' (at most 40)";
  throw new CliError(`"${name}" is not a valid name: ${rule}.`, 2);
}

async function run(argv: string[], store: () => AccountsStore): Promise<string> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { role: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  const [command, given] = positionals;
  if (values.help || !command) return USAGE;
  if (command === 'list') {
    const users = store().listUsers();
    if (users.length === 0) return 'No accounts yet: npm run users -- add NAME --role owner';
    const rows = [['NAME', 'ROLE', 'CREATED', 'SESSIONS']].concat(
      users.map(({ name, role, createdAt, sessions }) => {
        const created = new Date(createdAt).toISOString().slice(0, 16).replace('T', ' ');
        return [name, role, created, String(sessions)];
      }),
    );
    const widths = rows[0]!.map((_, at) => Math.max(...rows.map((row) => row[at]!.length)));
    const line = (row: string[]) => row.map((cell, at) => cell.padEnd(widths[at]!)).join('  ');
    return rows.map((row) => line(row).trimEnd()).join('\n');
  }
  if (!['add', 'passwd', 'remove'].includes(command)) {
    throw new CliError(`Unknown command "${command}".\n\n${USAGE}`, 2);
  }
  const name = nameOf(given);
  if (command === 'remove') {
    if (!store().removeUser(name)) throw new CliError(`There is no account "${name}".`);
    return `Removed ${name}; their sessions have ended.`;
  }
  if (command === 'passwd') {
    if (!store().findUser(name)) throw new CliError(`There is no account "${name}".`);
    store().setPassword(name, await newPassword());
    return `New password for ${name}; their sessions have ended.`;
  }
  const role = values.role;
  if (!isRole(role)) throw new CliError(`--role must be one of ${ROLES.join(', ')}.`, 2);
  if (store().findUser(name)) {
    throw new CliError(`"${name}" has an account already (npm run users -- passwd ${name}).`);
  }
  const passwordHash = await newPassword();
  if (!store().addUser({ name, role, passwordHash, createdAt: Date.now() })) {
    throw new CliError(`"${name}" has an account already.`);
  }
  return `Added ${name} (${role}).`;
}

/** `npm run users -- add|passwd|remove|list`: the accounts of an exposed server. */
let store: AccountsStore | undefined;
try {
  const open = () =>
    (store ??= new AccountsStore(process.env.SLABDESK_USERS_DB?.trim() || DEFAULT_USERS_DB));
  console.log(await run(process.argv.slice(2), open));
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = error instanceof CliError ? error.code : error instanceof TypeError ? 2 : 1;
} finally {
  store?.close();
}
