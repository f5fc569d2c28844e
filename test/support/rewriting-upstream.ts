import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An upstream in front of a real sandbox that rewrites some of its JSON answers. */
export interface RewritingUpstream {
  url: string;
  close(): Promise<void>;
}

/**
 * Rewrites one answer's parsed body in place: `path` is the request's path and query. Return
 * false to leave the answer as the sandbox gave it.
 */
export type Rewrite = (path: string, body: Record<string, unknown>) => boolean;

/**
 * Forwards every call to `target` (a sandbox's root) as it is, except the 200 answers of the paths
 * `matches` takes, whose JSON body `rewrite` may change: a server written from the spec may use
 * codes our sandbox never does. The `Link` header is pointed back at this upstream so walks stay
 * on it.
 */
export async function startRewritingUpstream(
  target: string,
  matches: (path: string) => boolean,
  rewrite: Rewrite,
): Promise<RewritingUpstream> {
  const upstream = new URL(target);
  let base = '';
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    const rewritten = req.method === 'GET' && matches(path);
    const headers = { ...req.headers, host: upstream.host };
    // The body is rewritten: asked for as it is, not compressed.
    if (rewritten) headers['accept-encoding'] = 'identity';
    const forward = httpRequest(
      { host: upstream.hostname, port: upstream.port, path, method: req.method, headers },
      (answer) => {
        const out = { ...answer.headers };
        if (typeof out.link === 'string') out.link = out.link.split(target).join(base);
        if (!rewritten || answer.statusCode !== 200) {
          res.writeHead(answer.statusCode ?? 502, out);
          answer.pipe(res);
          return;
        }
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<
            string,
            unknown
          >;
          rewrite(path, body);
          const text = JSON.stringify(body);
          delete out['content-length'];
          delete out['transfer-encoding'];
          res.writeHead(200, { ...out, 'content-length': Buffer.byteLength(text) }).end(text);
        });
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

interface ShipmentShape {
  status?: string;
  tracking_number?: string | null;
  shipped_at?: string | null;
}

/** The shipment codes the unseen-codes upstream uses, none of them in the spec's values seen. */
export const UNSEEN_SHIPMENT = {
  /** A label was bought: not shipped (no `shipped_at`), still to ship. */
  labelled: 'label_created',
  /** Handed to a carrier: shipped (`shipped_at` set). */
  handedOver: 'handed_to_carrier',
} as const;

/**
 * An upstream whose orders speak shipment codes our sandbox never does: every other sold order not
 * yet shipped (even `order_number`) reads `label_created` with a tracking number, and every order
 * on its way to the hub reads `handed_to_carrier`. The timestamps are the sandbox's own.
 */
export function startUnseenShipmentCodes(target: string): Promise<RewritingUpstream> {
  const orderOf = (order: Record<string, unknown>) => {
    const shipment = order.svc_seller_shipment as ShipmentShape | undefined;
    if (!shipment) return;
    if (shipment.status === 'pending_shipment' && Number(order.order_number) % 2 === 0) {
      shipment.status = UNSEEN_SHIPMENT.labelled;
      shipment.tracking_number = `LBL${String(order.order_number)}`;
    } else if (shipment.status === 'in_transit' && shipment.shipped_at) {
      shipment.status = UNSEEN_SHIPMENT.handedOver;
    }
  };
  return startRewritingUpstream(
    target,
    (path) => /\/orders(\/[^/?]+)?(\.json)?(\?|$)/.test(path),
    (_path, body) => {
      const list = Array.isArray(body.orders) ? (body.orders as Record<string, unknown>[]) : [];
      const one = body.order as Record<string, unknown> | undefined;
      for (const order of one ? [...list, one] : list) orderOf(order);
      return true;
    },
  );
}
