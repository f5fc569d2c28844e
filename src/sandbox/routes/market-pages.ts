import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context';
import { formatCents } from '../../shared/money';
import { SLAB_IMAGE_PATH } from '../serializers/listing-views';
import { escape, slabSvg } from './slab-image';

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title></head><body><main>${body}</main></body></html>`;
}

/** The public pages that listing and card `url`s point at: minimal, but real. */
export function registerMarketPages(app: FastifyInstance, ctx: SandboxContext): void {
  app.get<{ Params: { handle: string } }>('/market/listings/:handle', async (request, reply) => {
    const row = ctx.store.listings.findByHandle(request.params.handle);
    reply.type('text/html; charset=utf-8');
    if (!row) return reply.status(404).send(page('Not found', '<h1>No such listing</h1>'));
    return page(
      row.title,
      `<h1>${escape(row.title)}</h1><p>${escape(row.status)} · $${formatCents(row.price_cents)}</p><p>${escape(row.description)}</p>`,
    );
  });
  app.get<{ Params: { id: string } }>('/market/cards/:id', async (request, reply) => {
    const item = ctx.store.catalog.itemById(request.params.id);
    reply.type('text/html; charset=utf-8');
    if (!item) return reply.status(404).send(page('Not found', '<h1>No such card</h1>'));
    return page(
      item.title,
      `<h1>${escape(item.title)}</h1><p>${escape(item.grader)} ${escape(item.grade)} · cert ${escape(item.cert_number)}</p>`,
    );
  });
  /** The demo's slab pictures, outside the guarded paths: cross-site only as `image`. */
  app.get<{ Params: { file: string } }>(`${SLAB_IMAGE_PATH}:file`, async (request, reply) => {
    const site = request.headers['sec-fetch-site'];
    const dest = request.headers['sec-fetch-dest'];
    if ((site === 'cross-site' || site === 'same-site') && dest !== 'image') {
      return reply.status(403).type('text/plain; charset=utf-8').send('Images only\n');
    }
    const cert = /^([A-Za-z0-9]{1,32})\.svg$/.exec(request.params.file)?.[1];
    const item = cert === undefined ? undefined : ctx.store.catalog.itemByCertAnyScope(cert);
    if (!item) return reply.status(404).type('text/plain; charset=utf-8').send('No such slab\n');
    return reply
      .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'")
      .header('Cross-Origin-Resource-Policy', 'cross-origin')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cache-Control', 'public, max-age=3600')
      .type('image/svg+xml')
      .send(slabSvg(item));
  });
}
