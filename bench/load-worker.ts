import { Agent, request } from 'node:http';

/** A closed-loop HTTP load generator in its own process: `concurrency` keep-alive clients for `seconds`. */
export interface LoadJob {
  urls: string[];
  headers: Record<string, string>;
  concurrency: number;
  seconds: number;
}

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  latenciesMs: number[];
}

async function run(job: LoadJob): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: job.concurrency });
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const started = performance.now();
  const deadline = started + job.seconds * 1000;
  const one = (url: string) =>
    new Promise<number>((resolve) => {
      const t0 = performance.now();
      const req = request(url, { agent, headers: job.headers }, (res) => {
        res.on('data', () => undefined);
        res.on('end', () => resolve(res.statusCode === 200 ? performance.now() - t0 : -1));
      });
      req.on('error', () => resolve(-1));
      req.end();
    });
  await Promise.all(
    Array.from({ length: job.concurrency }, async () => {
      while (performance.now() < deadline) {
        const ms = await one(job.urls[next++ % job.urls.length]!);
        if (ms < 0) errors++;
        else latencies.push(ms);
      }
    }),
  );
  agent.destroy();
  return {
    requests: latencies.length,
    errors,
    seconds: (performance.now() - started) / 1000,
    latenciesMs: latencies,
  };
}

// Run as a child process: the job arrives over IPC and the result goes back the same way.
if (process.send) {
  process.once('message', (job: LoadJob) => {
    void run(job).then((result) => process.send!(result, () => process.exit(0)));
  });
}
