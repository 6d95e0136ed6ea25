import { randomBytes } from 'node:crypto';
import type { WEBHOOK_TEST_EVENT_TYPE, WebhookEventType } from '@veriform/contracts';
import { executeSqlIn, type Tx } from '@veriform/db';
import { deliverWebhook } from '../../jobs/definitions/deliver-webhook.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { Clock } from '../../lib/clock.ts';

/** `evt_` and 22 characters of 16 random bytes (base64url): the `webhook-id` of every delivery of the event. */
export const newEventId = (): string => `evt_${randomBytes(16).toString('base64url')}`;
export const EVENT_ID_PATTERN = /^evt_[A-Za-z0-9_-]{22}$/;

export type WebhookEventInput = {
  type: WebhookEventType | typeof WEBHOOK_TEST_EVENT_TYPE;
  /** The object as API v1 shows it (plain JSON). */
  data: Record<string, unknown>;
  /** Stores the event once per account and key however often it is emitted (events found by a sweep). */
  dedupeKey?: string | undefined;
  /** Only to this endpoint, whatever types it wants and even while disabled ("Send test event"). */
  endpointId?: number | undefined;
};

export type EmittedEvent = {
  /** Null when `dedupeKey` had already been used: nothing was stored or queued. */
  eventId: string | null;
  deliveryIds: number[];
};

/**
 * Emitting webhook events (issue #17 item 2): `emit(tx, accountId, event)` in the transaction of the change itself,
 * so an event exists if and only if its change committed, and its deliveries' jobs commit with both. One statement
 * stores the event and a delivery for every enabled endpoint of the account that wants its type; then one job per
 * delivery (usually none or one) is queued in the same transaction. The code send emits through the same statement in
 * SQL (migration 0022, emit_webhook_event; ADR 26): a change here is a change there. The event's `livemode` (issue #33,
 * ADR 29) is its data's: false for a verification made for a test number, true for everything else.
 */
export function createWebhookEvents(deps: { clock: Clock; jobs: JobQueue }) {
  const { clock, jobs } = deps;

  async function emit(tx: Tx, accountId: number, event: WebhookEventInput): Promise<EmittedEvent> {
    const id = newEventId();
    const only = event.endpointId ?? null;
    const { rows } = await executeSqlIn(tx)(
      `WITH event AS (
         INSERT INTO webhook_events (id, account_id, type, data, created_at, dedupe_key, livemode)
         VALUES ($1, $2, $3, $4::jsonb, $5, $6, COALESCE(($4::jsonb->>'livemode')::boolean, true))
         ON CONFLICT (account_id, dedupe_key) WHERE dedupe_key IS NOT NULL DO NOTHING
         RETURNING id, account_id, type, created_at
       ), delivery AS (
         INSERT INTO webhook_deliveries (account_id, event_id, endpoint_id, event_created_at)
         SELECT event.account_id, event.id, endpoint.id, event.created_at
         FROM event JOIN webhook_endpoints endpoint ON endpoint.account_id = event.account_id
         WHERE CASE WHEN $7::integer IS NULL
                 THEN endpoint.enabled AND endpoint.event_types && ARRAY[event.type, '*']
                 ELSE endpoint.id = $7::integer END
         RETURNING id
       )
       SELECT (SELECT id FROM event) AS event_id, COALESCE((SELECT array_agg(id) FROM delivery), '{}') AS delivery_ids`,
      [id, accountId, event.type, JSON.stringify(event.data), clock.now(), event.dedupeKey ?? null, only],
    );
    const [row] = rows;
    const eventId = readEventId(row);
    const deliveryIds = readIds(row);
    for (const deliveryId of deliveryIds) {
      await jobs.enqueue(
        deliverWebhook,
        { deliveryId, attempt: 0, trigger: only === null ? 'scheduled' : 'test' },
        { tx },
      );
    }
    return { eventId, deliveryIds };
  }

  return { emit };
}

export type WebhookEvents = ReturnType<typeof createWebhookEvents>;

function readEventId(row: unknown): string | null {
  if (typeof row !== 'object' || row === null || !('event_id' in row)) throw new Error('emit: no event row');
  return typeof row.event_id === 'string' ? row.event_id : null;
}

/** bigint[] arrives as numbers or strings depending on the driver. */
function readIds(row: unknown): number[] {
  if (typeof row !== 'object' || row === null || !('delivery_ids' in row)) throw new Error('emit: no ids');
  const ids = row.delivery_ids;
  if (!Array.isArray(ids)) throw new Error('emit: delivery_ids is not an array');
  return ids.map((id) => Number(id));
}
