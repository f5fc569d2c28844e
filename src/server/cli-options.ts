import { parseArgs } from 'node:util';

/** The Vite-style flags `npm run dev` and `npm start` take: `--port N`, `--strictPort`, `--host [H]`. */
export interface CliOptions {
  host: string;
  port: number;
  strictPort: boolean;
  allowedHosts: string[];
}

const FLAGS = '--port N, --strictPort, --host [H]';

/** Flags whose value may be left out: `--host` alone binds everywhere, as in Vite. */
const OPTIONAL_VALUE = new Set(['--host', '--open']);

/** `parseArgs` has no optional values: a bare one is given an empty value before it parses. */
function withBareValues(argv: readonly string[]): string[] {
  return argv.map((arg, i) => {
    const next = argv[i + 1];
    const bare = OPTIONAL_VALUE.has(arg) && (next === undefined || next.startsWith('-'));
    return bare ? `${arg}=` : arg;
  });
}

/** The public address's host name is one of the server's own (Caddy passes it on as `Host`). */
function publicHostOf(publicUrl: string | undefined): string[] {
  const value = publicUrl?.trim();
  return value && URL.canParse(value) ? [new URL(value).hostname] : [];
}

function flagsOf(argv: readonly string[]) {
  try {
    return parseArgs({
      args: withBareValues(argv),
      options: {
        port: { type: 'string' },
        strictPort: { type: 'boolean' },
        'strict-port': { type: 'boolean' },
        host: { type: 'string' },
        open: { type: 'string' }, // the dashboard opens nothing; it prints its URL
      },
    }).values;
  } catch (error) {
    const first = (error as Error).message
      .split('. ')[0]!
      .replace(/^Unknown option/, 'unknown flag');
    throw new Error(`${first} (flags: ${FLAGS})`, { cause: error });
  }
}

export function parseCliOptions(argv: readonly string[], defaultPort: number): CliOptions {
  const flags = flagsOf(argv);
  const port = flags.port === undefined ? defaultPort : Number(flags.port);
  if (!/^\d+$/.test(flags.port ?? '0') || port > 65535) {
    throw new Error(`--port N: a port number, not "${flags.port}"`);
  }
  const host = flags.host === undefined ? '127.0.0.1' : flags.host || '0.0.0.0';
  return {
    host: host === 'true' ? '0.0.0.0' : host,
    port,
    strictPort: Boolean(flags.strictPort || flags['strict-port']),
    allowedHosts: [
      ...(process.env.SLABDESK_ALLOWED_HOSTS ?? '').split(',').filter(Boolean),
      ...publicHostOf(process.env.SLABDESK_PUBLIC_URL),
      ...(/^[\d.:]+$|^true$/.test(host) ? [] : [host]),
    ],
  };
}
