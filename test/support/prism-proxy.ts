import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * Stoplight Prism (`@stoplight/prism-cli` 5.14) as a validating proxy: started on a free port in
 * front of a running sandbox, with the OpenAPI document that sandbox serves at
 * `/_sandbox/openapi.json`. Prism forwards every call and reports what breaks the document in the
 * `sl-violations` response header; `check` turns that into a verdict.
 */
export interface PrismProxy {
  /** Prism's URL for the version root: `${url}/listings.json` reaches the sandbox's. */
  url: string;
  /** Prism's own log lines that name violations, since the start. */
  violationLog(): string[];
  close(): Promise<void>;
}

export interface Violation {
  location: string[];
  severity: string;
  code: string | number;
  message: string;
}

const PRISM_BIN = resolve(
  import.meta.dirname,
  '../../node_modules/@stoplight/prism-cli/dist/index.js',
);

async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.on('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => done(port));
    });
  });
}

export async function startPrismProxy(sandboxUrl: string): Promise<PrismProxy> {
  const response = await fetch(`${sandboxUrl}/_sandbox/openapi.json`);
  if (!response.ok) throw new Error(`openapi.json: HTTP ${response.status}`);
  const dir = mkdtempSync(join(tmpdir(), 'slabdesk-prism-'));
  const document = join(dir, 'openapi.json');
  writeFileSync(document, await response.text());
  // The free port is released before Prism binds it, so another suite may take it first: try again.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const started = await spawnPrism(document, sandboxUrl, port);
    if (started.ok) return proxyOf(started.child, port, started.output);
    if (!started.output.includes('EADDRINUSE') || attempt === 3) {
      throw new Error(`Prism exited (${started.code}):\n${started.output}`);
    }
  }
}

type Started =
  | { ok: true; child: ChildProcess; output: { text: string } }
  | { ok: false; code: number | null; output: string };

async function spawnPrism(document: string, sandboxUrl: string, port: number): Promise<Started> {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      PRISM_BIN,
      'proxy',
      document,
      `${sandboxUrl}/2026-07`,
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const output = { text: '' };
  return new Promise<Started>((done, fail) => {
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      fail(new Error(`Prism did not start:\n${output.text}`));
    }, 45_000);
    const onData = (chunk: Buffer) => {
      output.text += chunk.toString();
      if (output.text.includes('Prism is listening')) {
        clearTimeout(timer);
        done({ ok: true, child, output });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      done({ ok: false, code, output: output.text });
    });
  });
}

function proxyOf(child: ChildProcess, port: number, output: { text: string }): PrismProxy {
  return {
    url: `http://127.0.0.1:${port}`,
    violationLog: () => output.text.split('\n').filter((line) => line.includes('Violation:')),
    close: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}

/** The violations Prism reported for one exchange (none when the header is absent). */
export function violationsOf(headers: Headers): Violation[] {
  const raw = headers.get('sl-violations');
  if (!raw) return [];
  try {
    return JSON.parse(raw) as Violation[];
  } catch {
    // Prism says "Too many violations" instead of listing them: its log has the details.
    return [{ location: ['response'], severity: 'Error', code: 'many', message: raw }];
  }
}

/**
 * What fails the run: any violation of a response (the sandbox answered outside its document),
 * and a request outside the document that the sandbox accepted (a 2xx for what the document says
 * is invalid). A request outside the document that the sandbox refused (4xx) is the contract
 * working: tests send such requests on purpose.
 */
export function failingViolations(status: number, violations: Violation[]): Violation[] {
  return violations.filter(
    (v) => v.severity === 'Error' && (v.location[0] === 'response' || status < 400),
  );
}
