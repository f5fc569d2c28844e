import type { Db } from './database';
import { sqlOf } from './sql';

export interface WebhookRow {
  seq: number;
  id: string;
  seller_id: string;
  url: string;
  /** JSON array of topics. */
  topics: string;
  secret: string;
  enabled: number;
  disabled_reason: string | null;
  created_at: number;
  updated_at: number;
}

export interface EventRow {
  seq: number;
  id: string;
  seller_id: string;
  test: number;
  topic: string;
  resource_id: string;
  /** The exact JSON text that every attempt sends. */
  payload: string;
  created_at: number;
}

export type JobState = 'pending' | 'delivered' | 'failed' | 'skipped';

/** One event owed to one endpoint: the outbox row the delivery worker drains. */
export interface WebhookJobRow {
  id: number;
  event_id: string;
  webhook_id: string;
  attempts: number;
  first_at: number;
  next_at: number;
  state: JobState;
  updated_at: number;
}

export interface DeliveryRow {
  seq: number;
  webhook_id: string;
  event_id: string;
  topic: string;
  attempt: number;
  status_code: number | null;
  error: string | null;
  test_delivery: number;
  delivered_at: number;
}

/** Webhook endpoints, the event outbox, delivery jobs and the delivery log. */
export function createWebhooksStore(db: Db) {
  const sql = sqlOf(db);
  const webhook = sql.one<WebhookRow>(`SELECT * FROM webhooks WHERE id = ?`);
  const anyEnabled = sql.one<1, []>(`SELECT 1 FROM webhooks WHERE enabled = 1 LIMIT 1`);
  const updateEnabled = sql.run<[enabled: number, reason: string | null, at: number, id: string]>(
    `UPDATE webhooks SET enabled = ?, disabled_reason = ?, updated_at = ? WHERE id = ?`,
  );
  const insertJob = sql.run<[eventId: string, webhookId: string, ...times: number[]]>(
    `INSERT INTO webhook_jobs (event_id, webhook_id, attempts, first_at, next_at, state, updated_at)
     VALUES (?, ?, 0, ?, ?, 'pending', ?)`,
  );
  const selectDue = sql.all<WebhookJobRow, [now: number, excluding: string, limit: number]>(
    `SELECT * FROM webhook_jobs WHERE state = 'pending' AND next_at <= ?
       AND id NOT IN (SELECT value FROM json_each(?))
     ORDER BY next_at, id LIMIT ?`,
  );
  const countDue = sql.one<{ n: number }, [now: number]>(
    `SELECT COUNT(*) AS n FROM webhook_jobs WHERE state = 'pending' AND next_at <= ?`,
  );
  const webhooksOfEvent = sql.all<{ webhook_id: string }>(
    `SELECT DISTINCT webhook_id FROM webhook_jobs WHERE event_id = ? ORDER BY webhook_id`,
  );

  return {
    createWebhook(row: Omit<WebhookRow, 'seq' | 'enabled' | 'disabled_reason'>): WebhookRow {
      sql.insert('webhooks', row);
      return webhook(row.id)!;
    },
    webhook,
    webhooks: sql.all<WebhookRow, []>(`SELECT * FROM webhooks ORDER BY seq`),
    /** The seller's enabled endpoints. */
    subscribers: sql.all<WebhookRow>(
      `SELECT * FROM webhooks WHERE seller_id = ? AND enabled = 1 ORDER BY seq`,
    ),
    /** Whether any endpoint at all is enabled (a cheap guard before rendering an event). */
    anyEnabled: () => anyEnabled() !== undefined,
    rotateSecret: sql.run<[secret: string, at: number, id: string]>(
      `UPDATE webhooks SET secret = ?, updated_at = ? WHERE id = ?`,
    ),
    setEnabled(id: string, enabled: boolean, reason: string | null, at: number): void {
      updateEnabled(enabled ? 1 : 0, enabled ? null : reason, at, id);
    },
    reconfigure: sql.run<[url: string, topics: string, at: number, id: string]>(
      `UPDATE webhooks SET url = ?, topics = ?, updated_at = ? WHERE id = ?`,
    ),
    insertEvent(row: Omit<EventRow, 'seq'>): void {
      sql.insert('events', row);
    },
    event: sql.one<EventRow>(`SELECT * FROM events WHERE id = ?`),
    enqueue(eventId: string, webhookId: string, at: number): void {
      insertJob(eventId, webhookId, at, at, at);
    },
    /** Pending jobs due by `now`, leaving out the ones already being attempted. */
    dueJobs: (now: number, limit: number, excluding: readonly number[]) =>
      selectDue(now, JSON.stringify(excluding), limit),
    countDue: (now: number) => countDue(now)!.n,
    job: sql.one<WebhookJobRow, [id: number]>(`SELECT * FROM webhook_jobs WHERE id = ?`),
    updateJob: sql.run<
      [Pick<WebhookJobRow, 'id' | 'attempts' | 'next_at' | 'state' | 'updated_at'>]
    >(
      `UPDATE webhook_jobs SET attempts = @attempts, next_at = @next_at, state = @state,
       updated_at = @updated_at WHERE id = @id`,
    ),
    webhooksOfEvent: (eventId: string) => webhooksOfEvent(eventId).map((r) => r.webhook_id),
    logDelivery(row: Omit<DeliveryRow, 'seq'>): void {
      sql.insert('webhook_deliveries', row);
    },
    deliveries: sql.all<DeliveryRow>(
      `SELECT * FROM webhook_deliveries WHERE webhook_id = ? ORDER BY seq`,
    ),
  };
}
