import { randomBytes } from 'node:crypto';
import type { WEBHOOK_TEST_EVENT_TYPE, WebhookEventType } from '@veriform/contracts';
import { afterCommit, executeSqlIn, type Tx } from '@veriform/db';
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
  /** Null when `dedupeKey` had already been used: nothing was stored. */
  eventId: string | null;
  deliveryIds: number[];
};

/**
 * Emitting webhook events (issue #17 item 2): `emit(tx, accountId, event)` in the transaction of the change itself,
 * so an event exists if and only if its change committed, and its deliveries commit with both. One statement calls
 * `emit_webhook_event` (packages/db, ADR 33), the one home of the rule that the code send and the code check use in
 * SQL too: it stores the event (its `livemode` is its data's, issue #33, ADR 29) and a delivery for every enabled
 * endpoint of the account that wants its type, or for the one endpoint named, each due at once. The deliveries are
 * rows the deliver-webhook worker claims (ADR 33), woken once they are committed.
 */
export function createWebhookEvents(deps: { clock: Clock; jobs: JobQueue }) {
  const { clock, jobs } = deps;

  async function emit(tx: Tx, accountId: number, event: WebhookEventInput): Promise<EmittedEvent> {
    const { rows } = await executeSqlIn(tx)(
      `SELECT emitted_event_id AS event_id, delivery_ids
       FROM emit_webhook_event($1::text, $2::integer, $3::text, $4::jsonb, $5::timestamptz, $6::text, $7::integer)`,
      [
        newEventId(),
        accountId,
        event.type,
        JSON.stringify(event.data),
        clock.now(),
        event.dedupeKey ?? null,
        event.endpointId ?? null,
      ],
    );
    const [row] = rows;
    const eventId = readEventId(row);
    const deliveryIds = readIds(row);
    if (deliveryIds.length > 0) afterCommit(tx, () => jobs.wake(deliverWebhook));
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
