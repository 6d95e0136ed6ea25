import { schema, type Tx } from '@veriform/db';
import { and, eq, inArray } from 'drizzle-orm';

const { verificationAttempts, codeDeliveryEvents, codeDeliveryStatuses } = schema;

export type CodeDeliveryStatus = (typeof codeDeliveryStatuses)[number];

/**
 * The statuses a stored one may move on to. Callbacks arrive out of order (Twilio sends each from its own worker), so
 * a `sent` after `delivered` must not undo it: a status only moves forward, and the three outcomes are final.
 */
const EARLIER: Record<CodeDeliveryStatus, CodeDeliveryStatus[]> = {
  queued: [],
  sent: ['queued'],
  delivered: ['queued', 'sent'],
  undelivered: ['queued', 'sent'],
  failed: ['queued', 'sent'],
};

export type DeliveryEvent = {
  attemptId: string;
  status: CodeDeliveryStatus;
  at: Date;
  errorCode?: string | null | undefined;
  providerMessageId?: string | null | undefined;
};

/**
 * Records an event (every one, in arrival order, as evidence) and moves the attempt's status forward when the event is
 * later than what it shows. Returns whether the attempt's status changed.
 */
export async function recordDeliveryEvent(tx: Tx, event: DeliveryEvent): Promise<boolean> {
  await tx.insert(codeDeliveryEvents).values({
    attemptId: event.attemptId,
    status: event.status,
    at: event.at,
    errorCode: event.errorCode ?? null,
    providerMessageId: event.providerMessageId ?? null,
  });
  const earlier = EARLIER[event.status];
  if (earlier.length === 0) return false;
  const moved = await tx
    .update(verificationAttempts)
    .set({ deliveryStatus: event.status, deliveryErrorCode: event.errorCode ?? null })
    .where(
      and(
        eq(verificationAttempts.id, event.attemptId),
        inArray(verificationAttempts.deliveryStatus, earlier),
      ),
    )
    .returning({ id: verificationAttempts.id });
  return moved.length > 0;
}

/**
 * Twilio's MessageStatus values as ours. `sending` is Twilio handing it to the carrier, as good as `sent` for us;
 * `read` (WhatsApp, RCS) implies delivered; `canceled` (a scheduled message) never left. Anything else (inbound
 * statuses) is not a delivery status of a code.
 */
export function fromTwilioStatus(status: string): CodeDeliveryStatus | null {
  switch (status) {
    case 'accepted':
    case 'scheduled':
    case 'queued':
      return 'queued';
    case 'sending':
    case 'sent':
      return 'sent';
    case 'delivered':
    case 'read':
      return 'delivered';
    case 'undelivered':
      return 'undelivered';
    case 'failed':
    case 'canceled':
      return 'failed';
    default:
      return null;
  }
}

/** With no callback this long after `sent`, an SMS's fate is unknown: shown so, never as delivered. */
export const DELIVERY_UNKNOWN_AFTER_MS = 10 * 60 * 1000;

export type ShownDeliveryStatus = CodeDeliveryStatus | 'unknown';

/**
 * The status as shown, derived when read (no job marks anything): an SMS still `queued` or `sent` 10 minutes after
 * the provider took it is `unknown`. E-mail has no callbacks: SMTP's acceptance is all there is, so `sent` stays.
 */
export function shownDeliveryStatus(
  row: { method: 'sms' | 'email'; deliveryStatus: CodeDeliveryStatus; sentAt: Date | null },
  now: Date,
): ShownDeliveryStatus {
  const waiting = row.deliveryStatus === 'queued' || row.deliveryStatus === 'sent';
  if (
    row.method === 'sms' &&
    waiting &&
    row.sentAt !== null &&
    now.getTime() - row.sentAt.getTime() >= DELIVERY_UNKNOWN_AFTER_MS
  ) {
    return 'unknown';
  }
  return row.deliveryStatus;
}
