import { schema, type Tx } from '@veriform/db';
import { eq } from 'drizzle-orm';
import {
  type ApiVerificationRow,
  apiVerificationColumns,
  toApiVerification,
} from '../modules/verifications/api-object.ts';
import type { WebhookEventInput, WebhookEvents } from '../modules/webhooks/events.ts';
import type { CodeDeliveryStatus } from './delivery-status.ts';

const { verificationAttempts } = schema;

/**
 * The webhook events of a code message's fate (issue #18): `verification.delivered`, and
 * `verification.delivery_failed` for undelivered and failed, each emitted in the transaction that first moved the
 * attempt's status there. The forward-only update makes that transaction the only one (a status becomes final once);
 * the dedupe key is the second lock on the door, should a caller ever emit twice.
 */

const outcomeEventType = (status: CodeDeliveryStatus) =>
  status === 'delivered' ? ('verification.delivered' as const) : ('verification.delivery_failed' as const);

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

/**
 * A test number's message (issue #18): nothing is sent, but its history is what a real one's would be — queued,
 * sent, then (by SMS) delivered, or undelivered with the number's `simulated_error_code` — so a customer sees and tests
 * the failure paths (the public page's message, the attempts view, API v1, the webhook events) as with a decline test
 * card. The code send stores that history with the attempt (migration 0022, issue_verification_code), with the message
 * id `test:<attemptId>` that says it never left; this is where it ends.
 */
export function simulatedDelivery(
  method: 'sms' | 'email',
  simulatedErrorCode: string | null,
): { status: CodeDeliveryStatus; errorCode: string | null } {
  // E-mail has no outcome to simulate: a real one stops at `sent` too (SMTP's acceptance is all there is), and the
  // failures to choose from are carriers'.
  const status: CodeDeliveryStatus =
    method === 'email' ? 'sent' : simulatedErrorCode === null ? 'delivered' : 'undelivered';
  return { status, errorCode: status === 'undelivered' ? simulatedErrorCode : null };
}
