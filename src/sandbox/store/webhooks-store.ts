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
  const selectWebhook = db.prepare(`SELECT * FROM webhooks WHERE id = ?`);
  const selectWebhooks = db.prepare(`SELECT * FROM webhooks ORDER BY seq`);
  const selectSubscribers = db.prepare(
    `SELECT * FROM webhooks WHERE seller_id = ? AND enabled = 1 ORDER BY seq`,
  );
  const selectAnyEnabled = db.prepare(`SELECT 1 FROM webhooks WHERE enabled = 1 LIMIT 1`);
  const updateSecret = db.prepare(`UPDATE webhooks SET secret = ?, updated_at = ? WHERE id = ?`);
  const updateEnabled = db.prepare(
    `UPDATE webhooks SET enabled = ?, disabled_reason = ?, updated_at = ? WHERE id = ?`,
  );
  const updateConfig = db.prepare(
    `UPDATE webhooks SET url = ?, topics = ?, updated_at = ? WHERE id = ?`,
  );
  const selectEvent = db.prepare(`SELECT * FROM events WHERE id = ?`);
  const insertJob = db.prepare(
    `INSERT INTO webhook_jobs (event_id, webhook_id, attempts, first_at, next_at, state, updated_at)
     VALUES (?, ?, 0, ?, ?, 'pending', ?)`,
  );
  const selectDue = db.prepare(
    `SELECT * FROM webhook_jobs WHERE state = 'pending' AND next_at <= ?
       AND id NOT IN (SELECT value FROM json_each(?))
     ORDER BY next_at, id LIMIT ?`,
  );
  const countDue = db.prepare(
    `SELECT COUNT(*) AS n FROM webhook_jobs WHERE state = 'pending' AND next_at <= ?`,
  );
  const selectJob = db.prepare(`SELECT * FROM webhook_jobs WHERE id = ?`);
  const updateJob = db.prepare(
    `UPDATE webhook_jobs SET attempts = @attempts, next_at = @next_at, state = @state,
       updated_at = @updated_at WHERE id = @id`,
  );
  const webhooksOfEvent = db.prepare(
    `SELECT DISTINCT webhook_id FROM webhook_jobs WHERE event_id = ? ORDER BY webhook_id`,
  );
  const selectDeliveries = db.prepare(
    `SELECT * FROM webhook_deliveries WHERE webhook_id = ? ORDER BY seq`,
  );

  return {
    createWebhook(row: Omit<WebhookRow, 'seq' | 'enabled' | 'disabled_reason'>): WebhookRow {
      sql.insert('webhooks', row);
      return selectWebhook.get(row.id) as WebhookRow;
    },
    webhook(id: string): WebhookRow | undefined {
      return selectWebhook.get(id) as WebhookRow | undefined;
    },
    webhooks(): WebhookRow[] {
      return selectWebhooks.all() as WebhookRow[];
    },
    /** The seller's enabled endpoints. */
    subscribers(sellerId: string): WebhookRow[] {
      return selectSubscribers.all(sellerId) as WebhookRow[];
    },
    /** Whether any endpoint at all is enabled (a cheap guard before rendering an event). */
    anyEnabled(): boolean {
      return selectAnyEnabled.get() !== undefined;
    },
    rotateSecret(id: string, secret: string, at: number): void {
      updateSecret.run(secret, at, id);
    },
    setEnabled(id: string, enabled: boolean, reason: string | null, at: number): void {
      updateEnabled.run(enabled ? 1 : 0, enabled ? null : reason, at, id);
    },
    reconfigure(id: string, url: string, topics: string, at: number): void {
      updateConfig.run(url, topics, at, id);
    },
    insertEvent(row: Omit<EventRow, 'seq'>): void {
      sql.insert('events', row);
    },
    event(id: string): EventRow | undefined {
      return selectEvent.get(id) as EventRow | undefined;
    },
    enqueue(eventId: string, webhookId: string, at: number): void {
      insertJob.run(eventId, webhookId, at, at, at);
    },
    /** Pending jobs due by `now`, leaving out the ones already being attempted. */
    dueJobs(now: number, limit: number, excluding: readonly number[]): WebhookJobRow[] {
      return selectDue.all(now, JSON.stringify(excluding), limit) as WebhookJobRow[];
    },
    countDue(now: number): number {
      return (countDue.get(now) as { n: number }).n;
    },
    job(id: number): WebhookJobRow | undefined {
      return selectJob.get(id) as WebhookJobRow | undefined;
    },
    updateJob(row: Pick<WebhookJobRow, 'id' | 'attempts' | 'next_at' | 'state' | 'updated_at'>) {
      updateJob.run(row);
    },
    webhooksOfEvent(eventId: string): string[] {
      return (webhooksOfEvent.all(eventId) as { webhook_id: string }[]).map((r) => r.webhook_id);
    },
    logDelivery(row: Omit<DeliveryRow, 'seq'>): void {
      sql.insert('webhook_deliveries', row);
    },
    deliveries(webhookId: string): DeliveryRow[] {
      return selectDeliveries.all(webhookId) as DeliveryRow[];
    },
  };
}
