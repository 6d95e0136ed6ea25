import { schema, type Tx } from '@veriform/db';
import { eq } from 'drizzle-orm';
import {
  type ApiVerificationRow,
  apiVerificationColumns,
  toApiVerification,
} from '../modules/verifications/api-object.ts';
import type { WebhookEvents } from '../modules/webhooks/events.ts';
import type { CodeDeliveryStatus } from './delivery-status.ts';

const { verificationAttempts, codeDeliveryEvents } = schema;

/**
 * The webhook events of a code message's fate (issue #18): `verification.delivered`, and
 * `verification.delivery_failed` for undelivered and failed, each emitted in the transaction that first moved the
 * attempt's status there. The forward-only update makes that transaction the only one (a status becomes final once);
 * the dedupe key is the second lock on the door, should a caller ever emit twice.
 */

const outcomeEventType = (status: CodeDeliveryStatus) =>
  status === 'delivered' ? ('verification.delivered' as const) : ('verification.delivery_failed' as const);

/** One outcome event per attempt, whichever it is. */
export const deliveryOutcomeDedupeKey = (attemptId: string) => `verification.delivery:${attemptId}`;

/** Emits the outcome event of a row that has just reached a final status, its data as API v1 shows the row. */
export async function emitDeliveryOutcomeOf(
  tx: Tx,
  webhookEvents: WebhookEvents,
  accountId: number,
  row: ApiVerificationRow,
  now: Date,
): Promise<void> {
  if (
    row.deliveryStatus !== 'delivered' &&
    row.deliveryStatus !== 'undelivered' &&
    row.deliveryStatus !== 'failed'
  )
    return;
  await webhookEvents.emit(tx, accountId, {
    type: outcomeEventType(row.deliveryStatus),
    data: toApiVerification(row, now, true),
    dedupeKey: deliveryOutcomeDedupeKey(row.id),
  });
}

/** As emitDeliveryOutcomeOf, reading the row (the caller's update holds its lock, so it is the one just written). */
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
  if (row) await emitDeliveryOutcomeOf(tx, webhookEvents, row.accountId, row, now);
}

/**
 * A test number's message (issue #18): nothing is sent, but its history is what a real one's would be — queued,
 * sent, then (by SMS) delivered, or undelivered with the number's `simulated_error_code` — so a customer sees and tests
 * the failure paths (the public page's message, the attempts view, API v1, the webhook events) as with a decline test
 * card. In issueCode's transaction, on the row it has just inserted; the message id `test:<attemptId>` says it never
 * left. Returns the row as it now is; the caller emits `code_sent`, then the outcome (emitDeliveryOutcomeOf).
 */
export async function simulateTestDelivery(
  tx: Tx,
  row: ApiVerificationRow,
  simulatedErrorCode: string | null,
  now: Date,
): Promise<ApiVerificationRow> {
  const providerMessageId = `test:${row.id}`;
  // E-mail has no outcome to simulate: a real one stops at `sent` too (SMTP's acceptance is all there is), and the
  // failures to choose from are carriers'.
  const outcome: CodeDeliveryStatus =
    row.method === 'email' ? 'sent' : simulatedErrorCode === null ? 'delivered' : 'undelivered';
  const errorCode = outcome === 'undelivered' ? simulatedErrorCode : null;
  // The row was inserted by this transaction a moment ago, still `queued`: two statements write the whole history.
  await tx
    .insert(codeDeliveryEvents)
    .values([
      { attemptId: row.id, status: 'queued', at: now, errorCode: null, providerMessageId: null },
      { attemptId: row.id, status: 'sent', at: now, errorCode: null, providerMessageId },
      ...(outcome === 'sent'
        ? []
        : [{ attemptId: row.id, status: outcome, at: now, errorCode, providerMessageId }]),
    ]);
  await tx
    .update(verificationAttempts)
    .set({ sentAt: now, providerMessageId, deliveryStatus: outcome, deliveryErrorCode: errorCode })
    .where(eq(verificationAttempts.id, row.id));
  return { ...row, sentAt: now, deliveryStatus: outcome, deliveryErrorCode: errorCode };
}
