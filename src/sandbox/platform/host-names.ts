import { networkInterfaces } from 'node:os';

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];
const WILDCARD_BINDS = new Set(['0.0.0.0', '::', '[::]']);
const LOOPBACK_BINDS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

const bracketed = (address: string) =>
  address.includes(':') && !address.startsWith('[') ? `[${address}]` : address;

/** A plain-http URL on this machine's own names (local photos and webhook receivers). */
export const isLoopbackHttp = (url: URL) =>
  url.protocol === 'http:' && LOOPBACK_NAMES.includes(url.hostname);

/** Whether a bind address keeps the sandbox on this machine (127.x.x.x, `localhost`, `::1`). */
export const isLoopbackBind = (host: string) =>
  LOOPBACK_BINDS.has(host.toLowerCase()) || /^127\.\d+\.\d+\.\d+$/.test(host);

/** Splits `name[:port]` (IPv6 in brackets) into its name and port, both lower case. */
function splitHost(host: string): { name: string; port: string | undefined } {
  const value = host.trim().toLowerCase();
  const match = /^(\[[^\]]*\]|[^:]*)(?::(\d*))?$/.exec(value);
  if (!match) return { name: value, port: undefined };
  return { name: match[1]!, port: match[2] || undefined };
}

/**
 * The `Host` names answered, so a DNS-rebinding page cannot reach the keys or control API: the
 * loopback names and the bind address with our port, plus `extra` names (a port: that only).
 */
export function hostNames(bindHost: string, port: number, extra: readonly string[] = []) {
  // The bind address itself too: bound to `::`, the sandbox's own URL is `http://[::]:port`.
  const own = new Set([...LOOPBACK_NAMES, bracketed(bindHost.toLowerCase())]);
  if (WILDCARD_BINDS.has(bindHost)) {
    for (const list of Object.values(networkInterfaces())) {
      for (const entry of list ?? []) own.add(bracketed(entry.address.toLowerCase()));
    }
  }
  const exact = new Set<string>();
  for (const name of own) {
    exact.add(`${name}:${port}`);
    // A browser leaves the port out of Host when it is the scheme's default.
    if (port === 80) exact.add(name);
  }
  const anyPort = new Set<string>();
  for (const entry of extra) {
    const { name, port: given } = splitHost(entry);
    if (!name) continue;
    if (given === undefined) anyPort.add(name);
    else exact.add(`${name}:${given}`);
  }
  return {
    /** True when `host` (the header, any case) is one of the sandbox's own names. */
    allows(host: string | undefined) {
      if (!host) return false;
      const value = host.trim().toLowerCase();
      return exact.has(value) || anyPort.has(splitHost(value).name);
    },
  };
}

export type HostNames = ReturnType<typeof hostNames>;

/** `SANDBOX_ALLOWED_HOSTS`: comma-separated names, each with or without `:port`. */
export const parseAllowedHosts = (value: string): string[] =>
  value
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
