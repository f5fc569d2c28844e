import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Json } from './writes-helpers';
import { vi } from 'vitest';

/** One delivery as a receiver saw it: the exact raw bytes and the headers. */
export interface Received {
  raw: Buffer;
  body: Json;
  headers: IncomingHttpHeaders;
  topic: string;
  eventId: string;
  attempt: number;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** The status to answer each delivery with; `hang` never answers. */
  answer: (delivery: Received) => number | 'hang';
  waitFor(predicate: (received: Received[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Verifies `X-Service-Webhook-Signature` the way a partner's receiver would: its own
 * HMAC-SHA256 over `<t>.<raw body>`, compared in constant time, with the timestamp within an
 * hour of the receiver's clock.
 */
export function verifySignature(secret: string, raw: Buffer, header: string | undefined): boolean {
  if (!header) return false;
  const parts = Object.fromEntries(
    header.split(',').map((p) => p.split('=', 2) as [string, string]),
  );
  const t = Number(parts.t);
  const v1 = parts.v1 ?? '';
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > 3600) return false;
  const expected = createHmac('sha256', secret)
    .update(Buffer.concat([Buffer.from(`${t}.`), raw]))
    .digest();
  const given = Buffer.from(v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** A local webhook receiver on a free loopback port. */
export async function startReceiver(): Promise<Receiver> {
  const receiver: Receiver = {
    url: '',
    received: [],
    answer: () => 200,
    async waitFor(predicate, timeoutMs = 5000) {
      await vi.waitFor(
        () => {
          if (!predicate(receiver.received)) {
            throw new Error(
              `receiver: condition not met; got ${receiver.received.length} deliveries`,
            );
          }
        },
        { timeout: timeoutMs, interval: 10 },
      );
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks);
      const delivery: Received = {
        raw,
        body: JSON.parse(raw.toString('utf8')) as Json,
        headers: request.headers,
        topic: String(request.headers['x-service-webhook-topic']),
        eventId: String(request.headers['x-service-webhook-id']),
        attempt: Number(request.headers['x-service-webhook-attempt']),
      };
      receiver.received.push(delivery);
      const status = receiver.answer(delivery);
      if (status === 'hang') return;
      response.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return receiver;
}
