import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context';
import { formatCents } from '../domain/money';

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

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
}
