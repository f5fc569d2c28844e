import type { Db } from './database';
import type { RowOf } from './migrations';
import { sqlOf } from './sql';

/** An endpoint; `topics` is a JSON array of topics. */
export type WebhookRow = RowOf<'webhooks'>;
/** An event; `payload` is the exact JSON text that every attempt sends. */
export type EventRow = RowOf<'events'>;

export type JobState = 'pending' | 'delivered' | 'failed' | 'skipped';

/** One event owed to one endpoint: the outbox row the delivery worker drains. */
export type WebhookJobRow = Omit<RowOf<'webhook_jobs'>, 'state'> & { state: JobState };

export type DeliveryRow = RowOf<'webhook_deliveries'>;

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
    /** The enabled endpoints an event was ever owed to, by id. */
    enabledOfEvent: sql.all<WebhookRow>(
      `SELECT * FROM webhooks WHERE enabled = 1
       AND id IN (SELECT webhook_id FROM webhook_jobs WHERE event_id = ?) ORDER BY id`,
    ),
    logDelivery(row: Omit<DeliveryRow, 'seq'>): void {
      sql.insert('webhook_deliveries', row);
    },
    deliveries: sql.all<DeliveryRow>(
      `SELECT * FROM webhook_deliveries WHERE webhook_id = ? ORDER BY seq`,
    ),
  };
}
