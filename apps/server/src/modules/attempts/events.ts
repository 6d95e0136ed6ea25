import type { ApiVerification } from '@veriform/contracts';
import { schema, type Tx } from '@veriform/db';
import { eq } from 'drizzle-orm';
import {
  type ApiVerificationRow,
  apiVerificationColumns,
  toApiVerification,
} from '../../domain/api-verification.ts';
import type { AttemptStatus, CodeDeliveryStatus } from '../../domain/attempt-state.ts';
import type { WebhookEventInput, WebhookEvents } from '../webhooks/index.ts';

const { verificationAttempts } = schema;

/**
 * The attempt's webhook events (issue #17, #18; ADR 35): which event each transition emits, with its payload typed as
 * API v1's `Verification` (the data a receiver gets is what `GET /api/v1/verifications/{id}` answers). Each is
 * emitted in the transaction of the change, by the change's writer: store.ts (cancel, delivery outcomes), the SQL
 * functions (code sent, approved, failed: their payloads built here by the store), the expiry sweep.
 */

/** Each transition or reading of an attempt that a receiver hears of, and its event type. */
export const ATTEMPT_EVENT_TYPES = {
  issued: 'verification.code_sent',
  verified: 'verification.approved',
  locked: 'verification.failed',
  canceled: 'verification.canceled',
  expired: 'verification.expired',
  delivered: 'verification.delivered',
  deliveryFailed: 'verification.delivery_failed',
} as const;

export type AttemptEventType = (typeof ATTEMPT_EVENT_TYPES)[keyof typeof ATTEMPT_EVENT_TYPES];

/** A typed attempt event: its type and the verification as API v1 shows it (full: the account's own endpoints). */
export type AttemptEvent = { type: AttemptEventType; data: ApiVerification; dedupeKey?: string };

/** The event of an attempt reaching a status (`pending`: a code sent); null for `replaced`, which none tells of. */
export function transitionEvent(to: AttemptStatus): AttemptEventType | null {
  switch (to) {
    case 'verified':
      return ATTEMPT_EVENT_TYPES.verified;
    case 'locked':
      return ATTEMPT_EVENT_TYPES.locked;
    case 'canceled':
      return ATTEMPT_EVENT_TYPES.canceled;
    case 'expired':
      return ATTEMPT_EVENT_TYPES.expired;
    case 'pending':
      return ATTEMPT_EVENT_TYPES.issued;
    case 'replaced':
      return null;
  }
}

/** An attempt event of `row` as it is at `now`. */
export function attemptEvent(
  type: AttemptEventType,
  row: ApiVerificationRow,
  now: Date,
  dedupeKey?: string,
): AttemptEvent {
  return { type, data: toApiVerification(row, now, true), ...(dedupeKey === undefined ? {} : { dedupeKey }) };
}

/**
 * The webhook events of a code message's fate (issue #18): `verification.delivered`, and
 * `verification.delivery_failed` for undelivered and failed, each emitted in the transaction that first moved the
 * attempt's status there. The forward-only update makes that transaction the only one (a status becomes final once);
 * the dedupe key is the second lock on the door, should a caller ever emit twice.
 */

const outcomeEventType = (status: CodeDeliveryStatus) =>
  status === 'delivered' ? ATTEMPT_EVENT_TYPES.delivered : ATTEMPT_EVENT_TYPES.deliveryFailed;

/** One outcome event per attempt, whichever it is. */
const deliveryOutcomeDedupeKey = (attemptId: string) => `verification.delivery:${attemptId}`;

/** The outcome event of a row that has just reached a final status, its data as API v1 shows the row; else null. */
export function deliveryOutcomeEvent(row: ApiVerificationRow, now: Date): WebhookEventInput | null {
  if (
    row.deliveryStatus !== 'delivered' &&
    row.deliveryStatus !== 'undelivered' &&
    row.deliveryStatus !== 'failed'
  )
    return null;
  return {
    type: outcomeEventType(row.deliveryStatus),
    data: toApiVerification(row, now, true),
    dedupeKey: deliveryOutcomeDedupeKey(row.id),
  };
}

/**
 * Emits the outcome event of an attempt that has just reached a final status, reading the row (the caller's update
 * holds its lock, so it is the one just written).
 */
export async function emitDeliveryOutcome(
  tx: Tx,
  webhookEvents: WebhookEvents,
  attemptId: string,
  now: Date,
): Promise<void> {
  const [row] = await tx
    .select({ ...apiVerificationColumns, accountId: verificationAttempts.accountId })
    .from(verificationAttempts)
    .where(eq(verificationAttempts.id, attemptId))
    .limit(1);
  const event = row ? deliveryOutcomeEvent(row, now) : null;
  if (row && event) await webhookEvents.emit(tx, row.accountId, event);
}
