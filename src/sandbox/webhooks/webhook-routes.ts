import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { SandboxContext } from '../context';
import { ControlError, parseControl as parse, requireSeller } from '../control/control-error';
import { TOPICS, isTopic } from '../domain/events';
import { ALPHANUMERIC } from '../domain/ids';
import { isoTime } from '../platform/time';
import { isLoopbackHttp } from '../platform/host-names';
import { storeUrls } from '../serializers/event-payloads';
import type { DeliveryRow, WebhookRow } from '../store/webhooks-store';
import type { WebhookDispatcher } from './dispatcher';
import { samplePayload } from './samples';

const topicList = z.array(z.string()).min(1);
const createBody = z.object({
  seller_id: z.string().min(1),
  url: z.string().min(1).max(2000),
  topics: topicList.optional(),
});
const patchBody = z
  .object({ url: z.string().min(1).max(2000), topics: topicList, enabled: z.boolean() })
  .partial()
  .strict();

/** HTTPS anywhere, or plain HTTP on a loopback address (local receivers). */
function checkUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ControlError(400, 'url: must be an absolute URL');
  }
  if (url.protocol === 'https:' || isLoopbackHttp(url)) return url.toString();
  throw new ControlError(400, 'url: must be https (plain http only on a loopback address)');
}

function checkTopics(topics: readonly string[] | undefined): string[] {
  if (!topics) return [...TOPICS];
  const unknown = topics.filter((t) => !isTopic(t));
  if (unknown.length > 0) {
    throw new ControlError(
      400,
      `topics: unknown ${unknown.join(', ')} (known: ${TOPICS.join(', ')})`,
    );
  }
  return [...new Set(topics)];
}

export const webhookView = (row: WebhookRow) => ({
  id: row.id,
  seller_id: row.seller_id,
  url: row.url,
  topics: JSON.parse(row.topics) as string[],
  secret: row.secret,
  enabled: row.enabled === 1,
  disabled_reason: row.disabled_reason,
  created_at: isoTime(row.created_at),
});

const deliveryView = (row: DeliveryRow) => ({
  event_id: row.event_id,
  topic: row.topic,
  attempt: row.attempt,
  status_code: row.status_code,
  delivered_at: isoTime(row.delivered_at),
  error: row.error,
  test: row.test_delivery === 1,
});

/** The control API's webhook endpoints (`../shared/spec/sandbox.md`), plus list, read and patch. */
export function registerWebhookRoutes(
  app: FastifyInstance,
  ctx: SandboxContext,
  dispatcher: WebhookDispatcher,
): void {
  const { store, ids, clock } = ctx;
  const newSecret = () => `svc_whsec_${ids.chars(32, ALPHANUMERIC)}`;
  const requireWebhook = (id: string) => {
    const row = store.webhooks.webhook(id);
    if (!row) throw new ControlError(404, `webhook ${id} not found`);
    return row;
  };

  app.post('/_sandbox/webhooks', async (request) => {
    const body = parse(createBody, request.body);
    const seller = requireSeller(store, body.seller_id);
    const now = clock.now();
    const row = store.webhooks.createWebhook({
      id: ids.id('whk'),
      seller_id: seller.id,
      url: checkUrl(body.url),
      topics: JSON.stringify(checkTopics(body.topics)),
      secret: newSecret(),
      created_at: now,
      updated_at: now,
    });
    return { webhook: webhookView(row) };
  });

  app.get<{ Querystring: { seller_id?: string } }>('/_sandbox/webhooks', async (request) => ({
    webhooks: store.webhooks
      .webhooks()
      .filter((w) => !request.query.seller_id || w.seller_id === request.query.seller_id)
      .map(webhookView),
  }));

  app.get<{ Params: { id: string } }>('/_sandbox/webhooks/:id', async (request) => ({
    webhook: webhookView(requireWebhook(request.params.id)),
  }));

  app.patch<{ Params: { id: string } }>('/_sandbox/webhooks/:id', async (request) => {
    const row = requireWebhook(request.params.id);
    const body = parse(patchBody, request.body);
    const now = clock.now();
    store.transaction(() => {
      if (body.url !== undefined || body.topics !== undefined) {
        store.webhooks.reconfigure(
          body.url === undefined ? row.url : checkUrl(body.url),
          body.topics === undefined ? row.topics : JSON.stringify(checkTopics(body.topics)),
          now,
          row.id,
        );
      }
      if (body.enabled !== undefined) {
        store.webhooks.setEnabled(row.id, body.enabled, 'disabled through the control API', now);
      }
    });
    return { webhook: webhookView(requireWebhook(row.id)) };
  });

  app.post<{ Params: { id: string } }>('/_sandbox/webhooks/:id/rotate', async (request) => {
    const row = requireWebhook(request.params.id);
    store.webhooks.rotateSecret(newSecret(), clock.now(), row.id);
    return { webhook: webhookView(requireWebhook(row.id)) };
  });

  app.post<{ Params: { id: string } }>('/_sandbox/webhooks/:id/test', async (request) => {
    const row = requireWebhook(request.params.id);
    const body = parse(z.object({ topic: z.string() }), request.body);
    if (!isTopic(body.topic)) {
      throw new ControlError(400, `topic: must be one of ${TOPICS.join(', ')}`);
    }
    const event = {
      id: ids.id('evt'),
      topic: body.topic,
      payload: JSON.stringify(samplePayload(body.topic, storeUrls(store))),
      test: 0,
    };
    const result = await dispatcher.send(row, event, 1, true);
    const delivery = {
      webhook_id: row.id,
      event_id: event.id,
      topic: event.topic,
      attempt: 1,
      ...result,
      test_delivery: 1,
      delivered_at: clock.now(),
    };
    store.webhooks.logDelivery(delivery);
    return { delivery: deliveryView({ seq: 0, ...delivery }) };
  });

  app.get<{ Params: { id: string } }>('/_sandbox/webhooks/:id/deliveries', async (request) => ({
    deliveries: store.webhooks.deliveries(requireWebhook(request.params.id).id).map(deliveryView),
  }));

  app.post<{ Params: { id: string } }>('/_sandbox/events/:id/redeliver', async (request) => {
    const event = store.webhooks.event(request.params.id);
    if (!event) throw new ControlError(404, `event ${request.params.id} not found`);
    const targets = store.webhooks.enabledOfEvent(event.id);
    if (targets.length === 0) {
      throw new ControlError(
        409,
        `event ${event.id} has no enabled endpoint to go to (re-enable it with PATCH /_sandbox/webhooks/{id})`,
      );
    }
    const now = clock.now();
    store.transaction(() => {
      for (const webhook of targets) store.webhooks.enqueue(event.id, webhook.id, now);
    });
    dispatcher.kick();
    return { ok: true };
  });
}
