import { Agent, request } from 'node:http';

/**
 * The create load for `sandbox.create.rps`, in its own process so the load generator and the
 * sandbox have a core each: `concurrency` keep-alive clients POST one listing per cert.
 */
export interface CreateLoadJob {
  url: string;
  token: string;
  certs: string[];
  concurrency: number;
  seconds: number;
}

export interface CreateLoadResult {
  created: number;
  failures: number;
  seconds: number;
}

async function run(job: CreateLoadJob): Promise<CreateLoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: job.concurrency });
  let next = 0;
  let created = 0;
  let failures = 0;
  const started = performance.now();
  const deadline = started + job.seconds * 1000;
  const post = (cert: string) =>
    new Promise<number>((resolve) => {
      const body = JSON.stringify({ listing: { sku: cert, price: '25.00' } });
      const req = request(
        `${job.url}/2026-07/listings.json`,
        {
          method: 'POST',
          agent,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            'X-Service-Access-Token': job.token,
            'Idempotency-Key': `bench-${cert}`,
          },
        },
        (res) => {
          res.on('data', () => undefined);
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', () => resolve(0));
      req.end(body);
    });
  await Promise.all(
    Array.from({ length: job.concurrency }, async () => {
      while (next < job.certs.length && performance.now() < deadline) {
        if ((await post(job.certs[next++]!)) === 201) created++;
        else failures++;
      }
    }),
  );
  agent.destroy();
  return { created, failures, seconds: (performance.now() - started) / 1000 };
}

process.once('message', (job: CreateLoadJob) => {
  void run(job).then((result) => {
    process.send?.(result);
    process.exit(0);
  });
});
