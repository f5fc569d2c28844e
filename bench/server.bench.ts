import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEMO_SELLER_ID, startSandbox } from '../src/sandbox';
import { callUpstream } from '../src/server/upstream-call';
import { median, round, type Bench } from './bench-api';
import { sized } from './quick';

/** A real page of 250 listings, taken once from the sandbox, so the figures measure the client. */
async function listingsPage(): Promise<Buffer> {
  const sandbox = await startSandbox({ port: 0, db: ':memory:', seed: 'demo', demoListings: 250 });
  try {
    const keys = await fetch(`${sandbox.url}/_sandbox/keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ seller_id: DEMO_SELLER_ID, mode: 'live', scopes: ['read_listings'] }),
    });
    const { key } = (await keys.json()) as { key: { token: string } };
    const page = await fetch(`${sandbox.url}/2026-07/listings.json?limit=250`, {
      headers: { 'x-service-access-token': key.token },
    });
    return Buffer.from(await page.arrayBuffer());
  } finally {
    await sandbox.close();
  }
}

/** CPU milliseconds per call (client and a trivial server, one process), median of 5 rounds. */
async function cpuPerCall(call: () => Promise<Buffer>, calls = 200): Promise<number> {
  const rounds: number[] = [];
  for (let round = 0; round < sized(5, 1); round++) {
    for (let i = 0; i < 20; i++) await call();
    const start = process.cpuUsage();
    for (let i = 0; i < calls; i++) await call();
    const used = process.cpuUsage(start);
    rounds.push((used.user + used.system) / 1000 / calls);
  }
  return median(rounds);
}

/** The proxy's upstream client (node:http, kept-alive) against `fetch` on the same page. */
const bench: Bench = {
  figures: ['server.upstream_page_250.node_http_cpu_ms', 'server.upstream_page_250.fetch_cpu_ms'],
  async run(report) {
    const body = await listingsPage();
    const server = createServer((_, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/2026-07/listings.json`;
    try {
      const viaHttp = async () => (await callUpstream(url, { method: 'GET', headers: {} })).body;
      const viaFetch = async () =>
        Buffer.from(await (await fetch(url, { redirect: 'manual' })).arrayBuffer());
      report('server.upstream_page_250.node_http_cpu_ms', round(await cpuPerCall(viaHttp), 3));
      report('server.upstream_page_250.fetch_cpu_ms', round(await cpuPerCall(viaFetch), 3));
    } finally {
      server.closeAllConnections();
      server.close();
    }
  },
};
export default bench;
