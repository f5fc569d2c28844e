import { createHmac } from 'node:crypto';
import { Agent, request } from 'node:http';
import { readEventStream } from '../test/support/sse-reader';

/**
 * The marketplace and one tab, in a process of their own (so the server's event loop, measured
 * by the bench, carries only the server's work): the tab listens on `/hub/events`, then
 * `count` signed deliveries go to `/hub/webhooks` in a burst, `concurrency` at a time.
 */
export interface FloodJob {
  serverUrl: string;
  secret: string;
  count: number;
  concurrency: number;
}

export interface FloodResult {
  answered2xx: number;
  statuses: Record<string, number>;
  /** Webhook events the tab received, and how many distinct ids among them. */
  received: number;
  distinct: number;
  seconds: number;
}

/** A product as the API sends it: about 3 KB, like a listing with its photos and description. */
function product(i: number): string {
  const id = `lst_flood_${i}`;
  return JSON.stringify({
    id,
    title: `2021 Topps Chrome #${i} Rookie Auto Refractor PSA 10 Gem Mint`,
    body_html: `Card ${i}. `.repeat(12) + 'Centered, sharp corners, no print lines. '.repeat(20),
    vendor: 'PSA',
    product_type: 'Baseball',
    status: 'active',
    handle: `card-${i}`,
    tags: 'rookie,auto,refractor,psa-10',
    created_at: '2026-07-01T10:00:00Z',
    updated_at: new Date().toISOString(),
    svc_cert_number: String(40_000_000 + i),
    svc_grader: 'PSA',
    svc_grade: '10',
    svc_is_lot: false,
    svc_unavailable_reason: null,
    variants: [
      {
        id: `var_${i}`,
        price: (20 + (i % 500)).toFixed(2),
        sku: String(40_000_000 + i),
        inventory_item_id: `inv_${i}`,
        inventory_quantity: 1,
      },
    ],
    images: Array.from({ length: 5 }, (_, k) => ({
      id: `img_${i}_${k}`,
      src: `https://images.example.com/cards/${i}/photo-${k}-front-high-resolution.jpg`,
      position: k + 1,
      width: 1200,
      height: 2000,
    })),
  });
}

async function run(job: FloodJob): Promise<FloodResult> {
  const tab = await readEventStream(`${job.serverUrl}/hub/events`);
  await tab.waitFor((m) => m.some((x) => x.event === 'status'));
  const bodies = Array.from({ length: job.count }, (_, i) => product(i));
  const agent = new Agent({ keepAlive: true, maxSockets: job.concurrency });
  const target = new URL(`${job.serverUrl}/hub/webhooks`);
  const statuses: Record<string, number> = {};
  const deliver = (i: number) =>
    new Promise<number>((resolve) => {
      const raw = bodies[i]!;
      const t = Math.floor(Date.now() / 1000);
      const v1 = createHmac('sha256', job.secret).update(`${t}.${raw}`).digest('hex');
      const req = request(
        target,
        {
          method: 'POST',
          agent,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(raw),
            'x-service-webhook-id': `evt_flood_${process.pid}_${i}`,
            'x-service-webhook-topic': 'products/update',
            'x-service-webhook-signature': `t=${t},v1=${v1}`,
            'x-service-webhook-attempt': '1',
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', () => resolve(0));
      req.end(raw);
    });
  // The tab is connected: the bench starts measuring now.
  await new Promise<void>((resolve) => {
    process.send!({ ready: true });
    process.once('message', () => resolve());
  });
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: job.concurrency }, async () => {
      while (next < job.count) {
        const status = await deliver(next++);
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    }),
  );
  const webhooks = () => tab.messages.filter((m) => m.event === 'webhook');
  await tab.waitFor(() => webhooks().length >= job.count, 30_000).catch(() => undefined);
  const seconds = (performance.now() - started) / 1000;
  const ids = new Set(webhooks().map((m) => (m.data as { eventId: string }).eventId));
  tab.close();
  agent.destroy();
  const answered2xx = Object.entries(statuses)
    .filter(([status]) => Number(status) >= 200 && Number(status) < 300)
    .reduce((sum, [, n]) => sum + n, 0);
  return { answered2xx, statuses, received: webhooks().length, distinct: ids.size, seconds };
}

// Run as a child process: the job arrives over IPC, then "go"; the result goes back the same way.
if (process.send) {
  process.once('message', (job: FloodJob) => {
    void run(job).then((result) => process.send!({ result }, () => process.exit(0)));
  });
}
