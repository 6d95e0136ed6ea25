import { CODE_TTL_SECONDS, MAX_WRONG_TRIES, RESEND_AFTER_SECONDS } from '@veriform/contracts';
import { schema } from '@veriform/db';
import { and, eq, gt, lte, type SQL, sql } from 'drizzle-orm';

/**
 * The verification attempt's state, pure (issue #34, ADR 35): its statuses and their transitions, the code's lifetime,
 * tries and resend spacing, the delivery status order, and "expired", defined here once for TypeScript (`statusAt`,
 * `isOpen`) and for Drizzle readers (`openSql`, `expiredSql`, `statusSql`) from the same columns and constants. SQL
 * functions read it through `attempt_is_open` (migration `attempt_state`), which a test holds to `isOpen` on a table
 * of cases on both engines.
 */

const { verificationAttempts, codeDeliveryStatuses } = schema;

export { CODE_TTL_SECONDS, MAX_WRONG_TRIES, RESEND_AFTER_SECONDS };

/** An attempt's status as stored. */
export type StoredStatus = (typeof verificationAttempts.status.enumValues)[number];

/** As read at an instant: a pending code whose time ran out is `expired`, although nothing changed in its row. */
export type AttemptStatus = StoredStatus | 'expired';

/**
 * Every status change an attempt can make, and where it is made (ADR 35): only a pending attempt changes, and the
 * four others are final. `expired` is not a transition: it is a pending attempt read after its `expires_at`.
 * - replaced: a newer code for the same number through the same form (issue_verification_code);
 * - verified: the right code while open with a try left (judge_verification_code);
 * - locked: the MAX_WRONG_TRIES-th wrong code (judge_verification_code);
 * - canceled: API v1's cancel (store.cancel).
 */
export const TRANSITIONS: Readonly<Record<StoredStatus, readonly StoredStatus[]>> = {
  pending: ['replaced', 'verified', 'locked', 'canceled'],
  verified: [],
  locked: [],
  replaced: [],
  canceled: [],
};

export const canMove = (from: StoredStatus, to: StoredStatus): boolean => TRANSITIONS[from].includes(to);

/** The code's lifetime from its send, in milliseconds. */
export const CODE_TTL_MS = CODE_TTL_SECONDS * 1000;
/** The spacing between two codes to one number through one form, in milliseconds. */
export const RESEND_AFTER_MS = RESEND_AFTER_SECONDS * 1000;

/** When a code sent at `now` stops working. */
export const expiresAtFor = (now: Date): Date => new Date(now.getTime() + CODE_TTL_MS);

type StateRow = { status: StoredStatus; expiresAt: Date };

/** Whether the attempt still takes a code at `now`: pending and before its `expires_at`. */
export function isOpen(row: StateRow, now: Date): boolean {
  return row.status === 'pending' && row.expiresAt.getTime() > now.getTime();
}

/** The status as read at `now`: as stored, with a pending code past its time `expired`. */
export function statusAt(row: StateRow, now: Date): AttemptStatus {
  return row.status === 'pending' && !isOpen(row, now) ? 'expired' : row.status;
}

/** The columns the SQL fragments read: the attempts table's, or an alias of it. */
type StateColumns = {
  status: typeof verificationAttempts.status;
  expiresAt: typeof verificationAttempts.expiresAt;
};

/**
 * `isOpen` as a WHERE condition. The columns stay bare, so the partial index on pending codes' `expires_at` serves
 * it.
 */
export function openSql(now: Date, t: StateColumns = verificationAttempts): SQL {
  return and(eq(t.status, 'pending'), gt(t.expiresAt, now)) ?? sql`false`;
}

/** `statusAt(…) = 'expired'` as a WHERE condition (a pending code at or past its time), index-friendly as openSql. */
export function expiredSql(now: Date, t: StateColumns = verificationAttempts): SQL {
  return and(eq(t.status, 'pending'), lte(t.expiresAt, now)) ?? sql`false`;
}

/** `statusAt` as a SQL expression: the stored status, or `expired` for a pending code at or past its time. */
export function statusSql(now: Date, t: StateColumns = verificationAttempts): SQL<AttemptStatus> {
  return sql<AttemptStatus>`(CASE WHEN ${expiredSql(now, t)} THEN 'expired' ELSE ${t.status} END)`;
}

/** A code message's delivery statuses (issue #18), in the order they can follow each other. */
export type CodeDeliveryStatus = (typeof codeDeliveryStatuses)[number];

/**
 * The delivery statuses a stored one may move on to, as the statuses each comes after. Callbacks arrive out of order
 * (Twilio sends each from its own worker), so a `sent` after `delivered` must not undo it: a status only moves
 * forward, and the three outcomes are final.
 */
export const DELIVERY_EARLIER: Readonly<Record<CodeDeliveryStatus, readonly CodeDeliveryStatus[]>> = {
  queued: [],
  sent: ['queued'],
  delivered: ['queued', 'sent'],
  undelivered: ['queued', 'sent'],
  failed: ['queued', 'sent'],
};

/** The outcomes: once one is reached the status never changes again (and its webhook event is emitted once). */
export const FINAL_DELIVERY_STATUSES: readonly CodeDeliveryStatus[] = ['delivered', 'undelivered', 'failed'];
export const isFinalDeliveryStatus = (status: CodeDeliveryStatus): boolean =>
  FINAL_DELIVERY_STATUSES.includes(status);

/** Whether `next` is later than `current` by the forward-only rule. */
export const movesForward = (current: CodeDeliveryStatus, next: CodeDeliveryStatus): boolean =>
  DELIVERY_EARLIER[next].includes(current);

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
