import { schema, type Tx } from '@veriform/db';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';

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

/** The outcomes: once one is reached the status never changes again (and its webhook event is emitted once). */
export const FINAL_DELIVERY_STATUSES: readonly CodeDeliveryStatus[] = ['delivered', 'undelivered', 'failed'];
export const isFinalDeliveryStatus = (status: CodeDeliveryStatus): boolean =>
  FINAL_DELIVERY_STATUSES.includes(status);

/** Whether `next` is later than `current` by the forward-only rule. */
export const movesForward = (current: CodeDeliveryStatus, next: CodeDeliveryStatus): boolean =>
  EARLIER[next].includes(current);

/**
 * Moves the attempt's status to `status` if it shows an earlier one. The guard is in the UPDATE, so of two final
 * reports at once the row lock lets one through and the second matches nothing. Returns whether it moved.
 */
async function moveStatus(
  tx: Tx,
  attemptId: string,
  status: CodeDeliveryStatus,
  errorCode: string | null,
): Promise<boolean> {
  const earlier = EARLIER[status];
  if (earlier.length === 0) return false;
  const moved = await tx
    .update(verificationAttempts)
    .set({ deliveryStatus: status, deliveryErrorCode: errorCode })
    .where(and(eq(verificationAttempts.id, attemptId), inArray(verificationAttempts.deliveryStatus, earlier)))
    .returning({ id: verificationAttempts.id });
  return moved.length > 0;
}

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
  return moveStatus(tx, event.attemptId, event.status, event.errorCode ?? null);
}

/**
 * Serializes what concerns one provider message id: a callback's lookup of its attempt (and its orphan insert) and the
 * send job's saving of the id (and its adoption of orphans). Without it a callback could miss the job's uncommitted
 * SID and store an orphan just after the job's adoption statement had looked, and stay orphaned for good.
 */
export async function lockProviderMessage(tx: Tx, providerMessageId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`code-message:${providerMessageId}`}))`);
}

/**
 * A callback ahead of its message's SID (Twilio answered the create; the send job's transaction has not committed):
 * kept with no attempt until the job adopts it (adoptOrphanEvents). Callers hold lockProviderMessage.
 */
export async function recordOrphanEvent(
  tx: Tx,
  event: Omit<DeliveryEvent, 'attemptId'> & { providerMessageId: string },
): Promise<void> {
  await tx.insert(codeDeliveryEvents).values({
    attemptId: null,
    status: event.status,
    at: event.at,
    errorCode: event.errorCode ?? null,
    providerMessageId: event.providerMessageId,
  });
}

/**
 * The send job, saving a message's SID (under lockProviderMessage): the callbacks that came first become the attempt's,
 * and its status moves on to the furthest of them, by the same forward-only rule as if they had come after (in arrival
 * order, so the first outcome wins). Returns the status the attempt moved to, or null when it did not move.
 */
export async function adoptOrphanEvents(
  tx: Tx,
  attemptId: string,
  providerMessageId: string,
  current: CodeDeliveryStatus,
): Promise<CodeDeliveryStatus | null> {
  const adopted = await tx
    .update(codeDeliveryEvents)
    .set({ attemptId })
    .where(
      and(isNull(codeDeliveryEvents.attemptId), eq(codeDeliveryEvents.providerMessageId, providerMessageId)),
    )
    .returning({
      id: codeDeliveryEvents.id,
      status: codeDeliveryEvents.status,
      errorCode: codeDeliveryEvents.errorCode,
    });
  let furthest: { status: CodeDeliveryStatus; errorCode: string | null } | null = null;
  let shown = current;
  for (const event of adopted.sort((a, b) => a.id - b.id)) {
    if (!movesForward(shown, event.status)) continue;
    shown = event.status;
    furthest = event;
  }
  if (!furthest) return null;
  return (await moveStatus(tx, attemptId, furthest.status, furthest.errorCode)) ? furthest.status : null;
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
