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

export function parseCliOptions(argv: readonly string[], defaultPort: number): CliOptions {
  const options: CliOptions = {
    host: '127.0.0.1',
    port: defaultPort,
    strictPort: false,
    allowedHosts: [
      ...(process.env.SLABDESK_ALLOWED_HOSTS ?? '').split(',').filter(Boolean),
      ...publicHostOf(process.env.SLABDESK_PUBLIC_URL),
    ],
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.includes('=') ? arg.split('=', 2) : [arg, undefined];
    const next = () => inline ?? argv[++i];
    switch (flag) {
      case '--port': {
        const port = Number(next());
        if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error('--port N');
        options.port = port;
        break;
      }
      case '--strictPort':
      case '--strict-port':
        options.strictPort = true;
        break;
      case '--host': {
        const value = inline ?? (argv[i + 1]?.startsWith('-') ? undefined : argv[i + 1]);
        if (inline === undefined && value !== undefined) i++;
        options.host = value === undefined || value === 'true' ? '0.0.0.0' : value;
        if (value && value !== 'true' && !/^[\d.:]+$/.test(value)) options.allowedHosts.push(value);
        break;
      }
      case '--open':
        break; // the dashboard opens nothing; it prints its URL
      default:
        throw new Error(`unknown flag ${arg} (flags: --port N, --strictPort, --host [H])`);
    }
  }
  return options;
}
