import { parseArgs } from 'node:util';
import type { Settings } from './config/settings';

/** The Vite-style flags `npm run dev` and `npm start` take: `--port N`, `--strictPort`, `--host [H]`. */
export interface CliOptions {
  host: string;
  port: number;
  strictPort: boolean;
  allowedHosts: string[];
}

/** The public address's host name is one of the server's own (Caddy passes it on as `Host`). */
function publicHostOf(publicUrl: string | undefined): string[] {
  const value = publicUrl?.trim();
  return value && URL.canParse(value) ? [new URL(value).hostname] : [];
}

/** `parseArgs` has no optional values: a bare `--host` or `--open` gets an empty one first. */
function flagsOf(argv: readonly string[]) {
  const bare = (arg: string, next = '-') => /^--(host|open)$/.test(arg) && next.startsWith('-');
  try {
    return parseArgs({
      args: argv.map((arg, i) => (bare(arg, argv[i + 1]) ? `${arg}=` : arg)),
      options: {
        port: { type: 'string' },
        strictPort: { type: 'boolean' },
        'strict-port': { type: 'boolean' },
        host: { type: 'string' }, // alone: every address, as in Vite
        open: { type: 'string' }, // the dashboard opens nothing; it prints its URL
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (error) {
    const first = (error as Error).message
      .split('. ')[0]!
      .replace('Unknown option', 'unknown flag');
    throw new Error(`${first} (flags: --port N, --strictPort, --host [H])`, { cause: error });
  }
}

export function parseCliOptions(
  argv: readonly string[],
  defaultPort: number,
  settings: Settings = {},
): CliOptions {
  const flags = flagsOf(argv);
  const port = flags.port === undefined ? defaultPort : Number(flags.port);
  if (!/^\d+$/.test(flags.port ?? '0') || port > 65535) {
    throw new Error(`--port N: a port number, not "${flags.port}"`);
  }
  const everywhere = flags.host === '' || flags.host === 'true';
  const host = everywhere ? '0.0.0.0' : (flags.host ?? '127.0.0.1');
  return {
    host,
    port,
    strictPort: Boolean(flags.strictPort || flags['strict-port']),
    allowedHosts: [
      ...(settings.SLABDESK_ALLOWED_HOSTS ?? '').split(',').filter(Boolean),
      ...publicHostOf(settings.SLABDESK_PUBLIC_URL),
      ...(/^[\d.:]+$/.test(host) ? [] : [host]),
    ],
  };
}
