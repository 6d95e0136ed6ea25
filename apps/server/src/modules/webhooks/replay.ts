import {
  type AuditTarget,
  type ReplayFailedWebhooksRequest,
  WEBHOOK_EVENT_RETENTION_DAYS,
  WEBHOOK_TEST_EVENT_TYPE,
  type WebhookReplayQueued,
  webhookReplayTexts,
} from '@veriform/contracts';
import { afterCommit, executeSqlIn, type Tx } from '@veriform/db';
import { deliverWebhook } from '../../jobs/definitions/deliver-webhook.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { AppError } from '../../lib/errors.ts';

const DAY_MS = 86_400_000;

/** A delivery set back for a replay: pending, due now, its next attempt recorded as a replay. */
const REPLAYED = `status = 'pending', next_attempt_at = excluded.next_attempt_at, due_at = excluded.due_at,
  next_trigger = 'replay', claims = 0`;

/** The oldest moment still replayable: events are kept WEBHOOK_EVENT_RETENTION_DAYS. */
export const replayableSince = (now: Date): Date =>
  new Date(now.getTime() - WEBHOOK_EVENT_RETENTION_DAYS * DAY_MS);

export const endpointTarget = (row: { id: number; url: string }): AuditTarget => ({
  type: 'webhook_endpoint',
  id: String(row.id),
  name: row.url,
});

export const eventTarget = (event: { id: string; type: string }): AuditTarget => ({
  type: 'webhook_event',
  id: event.id,
  name: event.type,
});

/**
 * Replays (issue #17 item 5): the event is sent again with its own id (the receiver's `webhook-id`), through the
 * delivery of that event to that endpoint: made if there was none (the event happened while the endpoint was
 * disabled, or before it wanted the type), otherwise set back to `pending` and due now, its next attempt recorded as a
 * replay. The row is the one schedule of its delivery (ADR 33), so a retry that was waiting is taken over by the
 * replay rather than sent as well. A delivery already `pending` is left alone: its attempt is on the way, and two
 * owners pressing "Replay" at once send it once.
 */
export function createWebhookReplay(deps: { jobs: JobQueue }) {
  const { jobs } = deps;

  /** The deliveries made due are committed with the replay; this process's worker is woken then. */
  function queued(tx: Tx, rows: unknown[]): WebhookReplayQueued {
    if (rows.length > 0) afterCommit(tx, () => jobs.wake(deliverWebhook));
    return { queued: rows.length };
  }

  /** One event to one enabled endpoint of its account (both checked by the caller). */
  async function replayEvent(
    tx: Tx,
    input: { accountId: number; endpointId: number; eventId: string; now: Date },
  ): Promise<WebhookReplayQueued> {
    const { rows } = await executeSqlIn(tx)(
      `INSERT INTO webhook_deliveries (account_id, event_id, endpoint_id, event_created_at, status, next_attempt_at,
         due_at, next_trigger)
       SELECT event.account_id, event.id, $2, event.created_at, 'pending', $3::timestamptz, now(), 'replay'
       FROM webhook_events event WHERE event.id = $1 AND event.account_id = $4
       ON CONFLICT (endpoint_id, event_id) DO UPDATE SET ${REPLAYED}
         WHERE webhook_deliveries.status <> 'pending'
       RETURNING id`,
      [input.eventId, input.endpointId, input.now.toISOString(), input.accountId],
    );
    return queued(tx, rows);
  }

  /**
   * Every event in [since, until) the endpoint should have had and did not: its delivery failed for good, or it has
   * none though the endpoint wants its type (it was disabled then; never events from before the endpoint existed).
   * Test events are left out: "Send test event" makes a new one. Set-wise, in one statement; a delivery is taken
   * only while `failed`, so two of these at once (or with a single replay) queue each event once.
   */
  async function replayFailed(
    tx: Tx,
    input: { accountId: number; endpointId: number; range: ReplayFailedWebhooksRequest; now: Date },
  ): Promise<WebhookReplayQueued> {
    const since = new Date(input.range.since);
    const until = new Date(input.range.until);
    if (since < replayableSince(input.now)) {
      throw AppError.field('validation_error', 'since', webhookReplayTexts.rangeTooOld);
    }
    const { rows } = await executeSqlIn(tx)(
      `WITH endpoint AS (
         SELECT id, account_id, event_types, created_at FROM webhook_endpoints WHERE id = $1 AND account_id = $2
       )
       INSERT INTO webhook_deliveries (account_id, event_id, endpoint_id, event_created_at, status, next_attempt_at,
         due_at, next_trigger)
       SELECT event.account_id, event.id, endpoint.id, event.created_at, 'pending', $5::timestamptz, now(), 'replay'
       FROM endpoint JOIN webhook_events event ON event.account_id = endpoint.account_id
       LEFT JOIN webhook_deliveries delivery ON delivery.endpoint_id = endpoint.id AND delivery.event_id = event.id
       WHERE event.created_at >= $3::timestamptz AND event.created_at < $4::timestamptz
         AND event.type <> $6
         AND (delivery.status = 'failed'
           OR (delivery.id IS NULL AND event.created_at >= endpoint.created_at
             AND endpoint.event_types && ARRAY[event.type, '*']))
       ON CONFLICT (endpoint_id, event_id) DO UPDATE SET ${REPLAYED}
         WHERE webhook_deliveries.status = 'failed'
       RETURNING id`,
      [
        input.endpointId,
        input.accountId,
        since.toISOString(),
        until.toISOString(),
        input.now.toISOString(),
        WEBHOOK_TEST_EVENT_TYPE,
      ],
    );
    return queued(tx, rows);
  }

  return { replayEvent, replayFailed };
}

export type WebhookReplay = ReturnType<typeof createWebhookReplay>;
