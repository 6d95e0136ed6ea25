import {
  type ApiCarrier,
  type ApiReassignment,
  type ApiSimSwap,
  type ApiVerification,
  type ApiVerificationStatus,
  type CarrierLineType,
  type ConsentEvidence,
  carrierLineTypes,
  deliveryReasonOf,
  MAX_WRONG_TRIES,
  RESEND_AFTER_SECONDS,
  type ReassignmentAnswer,
} from '@veriform/contracts';
import { schema } from '@veriform/db';
import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { shownDeliveryStatus, statusAt } from './attempt-state.ts';
import { maskEmail, maskPhone } from './phone.ts';

/** An attempt's id, API v1's verification id: 16 random bytes (128 bits), base64url, 22 characters. */
export const ATTEMPT_ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;

const { lookups, verificationAttempts, verifications } = schema;

/**
 * A verification attempt as API v1 shows it (`Verification`), built from its row alone: API v1's answers and the
 * webhook events of the verification module (public-verify's sends and checks, API v1's cancel, the expiry sweep)
 * build the same object, so a receiver's `data` is what `GET /api/v1/verifications/{id}` answers.
 */

const attemptColumns = {
  id: verificationAttempts.id,
  status: verificationAttempts.status,
  verifyFormId: verificationAttempts.verifyFormId,
  method: verificationAttempts.method,
  cellPhone: verificationAttempts.cellPhone,
  email: verificationAttempts.email,
  externalRefId: verificationAttempts.externalRefId,
  source: verificationAttempts.source,
  isTest: verificationAttempts.isTest,
  wrongTries: verificationAttempts.wrongTries,
  expiresAt: verificationAttempts.expiresAt,
  createdAt: verificationAttempts.createdAt,
  verifiedAt: verificationAttempts.verifiedAt,
  sentAt: verificationAttempts.sentAt,
  ip: verificationAttempts.ip,
  userAgent: verificationAttempts.userAgent,
  consentVersionId: verificationAttempts.consentVersionId,
  consentVersion: verificationAttempts.consentVersion,
  consentLanguage: verificationAttempts.consentLanguage,
  consentSha256: verificationAttempts.consentSha256,
  deliveryStatus: verificationAttempts.deliveryStatus,
  deliveryErrorCode: verificationAttempts.deliveryErrorCode,
  /** The verification (attempt) whose consent this one refreshes (issue #36 item 4), through a refresh link. */
  refreshes: verificationAttempts.refreshes,
};

/**
 * When its verification's personal data was redacted (issue #19, ADR 25): the attempt keeps no copy, its verification
 * is one primary-key lookup away. A subquery rather than a join, so every select and RETURNING of the attempt reads it.
 */
const redactedAt =
  sql<Date | null>`(select ${verifications.redactedAt} from ${verifications} where ${verifications.id} = ${verificationAttempts.verificationId})`
    .mapWith(verifications.redactedAt)
    .as('redacted_at');

/**
 * What the carrier said when the code was requested (issue #36 item 1): the line type and SIM swap records the attempt
 * links, each one primary-key probe (subqueries, as `redactedAt`, so a RETURNING reads them too), and the SIM swap
 * judgment kept on the attempt.
 */
const lookupOf = <T>(id: SQLWrapper, column: SQL) =>
  sql<T | null>`(select ${column} from ${lookups} where ${lookups.id} = ${id})`;
export const carrierColumns = {
  carrierLineType: lookupOf<string>(verificationAttempts.lineTypeLookupId, sql`${lookups.lineType}`).as(
    'carrier_line_type',
  ),
  carrierName: lookupOf<string>(verificationAttempts.lineTypeLookupId, sql`${lookups.carrierName}`).as(
    'carrier_name',
  ),
  simSwapLastAt: lookupOf<Date>(verificationAttempts.simSwapLookupId, sql`${lookups.lastSimSwapAt}`)
    .mapWith(lookups.lastSimSwapAt)
    .as('sim_swap_last_at'),
  simSwapWithinWindow: verificationAttempts.simSwapWithinWindow,
  simSwapWindowDays: verificationAttempts.simSwapWindowDays,
};

/** The columns the object is built from: select (or return) these. */
export const apiVerificationColumns = { ...attemptColumns, redactedAt, ...carrierColumns };

export type ApiVerificationRow = {
  [K in keyof typeof attemptColumns]: (typeof attemptColumns)[K]['_']['notNull'] extends true
    ? (typeof attemptColumns)[K]['_']['data']
    : (typeof attemptColumns)[K]['_']['data'] | null;
} & {
  redactedAt: Date | null;
  /**
   * The first revocation since approval (issue #35), read where the object is answered (API v1 joins the revocations
   * module's rule); left out, as webhook events do, it is null: an event carries the verification as it was when it
   * happened, before any revocation of it (which has a `consent.revoked` event of its own).
   */
  revokedAt?: Date | null;
  revocationId?: string | null;
  /**
   * The latest reassigned-number check (issue #36), read where the object is answered (API v1 joins the lookups
   * module's `latestReassignmentOf`); left out, as webhook events do, it is null.
   */
  reassignmentCheckedAt?: Date | null;
  reassignmentLastVerifiedDate?: string | null;
  reassignmentAnswer?: ReassignmentAnswer | null;
  reassignmentErrorCode?: number | null;
  /**
   * The carrier's answers linked when the code was requested (issue #36 item 1; `apiVerificationColumns` reads them).
   * A row built before its lookups (a new attempt's) may leave them out: null.
   */
  carrierLineType?: string | null;
  carrierName?: string | null;
  simSwapLastAt?: Date | null;
  simSwapWithinWindow?: boolean | null;
  simSwapWindowDays?: number | null;
  /**
   * The legal holds that reach it (issue #37), read where the object is answered (API v1 asks the holds module's
   * `heldBy`); left out, as webhook events do, it is empty.
   */
  heldBy?: string[];
};

const lineTypes: ReadonlySet<string> = new Set(carrierLineTypes);
const isLineType = (word: string): word is CarrierLineType => lineTypes.has(word);

/** The carrier's line type and name, or null when none was answered (not asked, or an answer without one). */
export function carrierOf(
  row: Pick<ApiVerificationRow, 'carrierLineType' | 'carrierName'>,
): ApiCarrier | null {
  const lineType = row.carrierLineType;
  if (lineType === null || lineType === undefined) return null;
  return {
    // Stored in our words already; a word this build does not know reads as `unknown`, as the client reads Twilio's.
    lineType: isLineType(lineType) ? lineType : 'unknown',
    name: row.carrierName ?? null,
  };
}

/** The last SIM swap as judged when the code was requested, or null when nothing was judged. */
export function simSwapOf(
  row: Pick<ApiVerificationRow, 'simSwapLastAt' | 'simSwapWithinWindow' | 'simSwapWindowDays'>,
): ApiSimSwap | null {
  const { simSwapWithinWindow: withinWindow, simSwapWindowDays: windowDays } = row;
  if (withinWindow === null || withinWindow === undefined || windowDays === null || windowDays === undefined)
    return null;
  return { lastSwapAt: row.simSwapLastAt?.toISOString() ?? null, withinWindow, windowDays };
}

/** The latest check as the object carries it, or null when none was made. */
export function reassignmentOf(
  row: Pick<
    ApiVerificationRow,
    'reassignmentCheckedAt' | 'reassignmentLastVerifiedDate' | 'reassignmentAnswer' | 'reassignmentErrorCode'
  >,
): ApiReassignment | null {
  const checkedAt = row.reassignmentCheckedAt;
  if (!checkedAt) return null;
  return {
    checkedAt: checkedAt.toISOString(),
    lastVerifiedDate: row.reassignmentLastVerifiedDate ?? '',
    answer: row.reassignmentAnswer ?? 'no_data',
    errorCode: row.reassignmentErrorCode ?? null,
  };
}

/** Status as stored, with `pending` split by the clock: a code past its time is `expired` although nothing changed. */
export function apiVerificationStatus(
  row: Pick<ApiVerificationRow, 'status' | 'expiresAt'>,
  now: Date,
): ApiVerificationStatus {
  const status = statusAt(row, now);
  switch (status) {
    case 'verified':
      return 'approved';
    case 'locked':
      return 'max_attempts';
    default:
      return status;
  }
}

/**
 * `full`: the number, address and evidence as stored (a key with `verifications:read`, and webhook events, whose
 * endpoints are the account owners'); masked otherwise.
 */
export function toApiVerification(row: ApiVerificationRow, now: Date, full: boolean): ApiVerification {
  return {
    id: row.id,
    status: apiVerificationStatus(row, now),
    formId: row.verifyFormId,
    channel: row.method,
    to: full ? row.cellPhone : maskPhone(row.cellPhone),
    email: row.email === null ? null : full ? row.email : maskEmail(row.email),
    externalRefId: row.externalRefId === '' ? null : row.externalRefId,
    source: row.source,
    test: row.isTest,
    // Test objects are exactly those made for test numbers (issue #33, ADR 29).
    livemode: !row.isTest,
    attemptsLeft: Math.max(0, MAX_WRONG_TRIES - row.wrongTries),
    expiresAt: row.expiresAt.toISOString(),
    resendAfter: new Date(row.createdAt.getTime() + RESEND_AFTER_SECONDS * 1000).toISOString(),
    hostedUrl: null,
    approvedAt: row.verifiedAt ? row.verifiedAt.toISOString() : null,
    sentAt: row.sentAt ? row.sentAt.toISOString() : null,
    evidence: full ? { ip: row.ip, userAgent: row.userAgent } : null,
    consent: consentEvidenceOf(row),
    // Test numbers' messages are simulated (issue #18); those from before the simulation have no history to show.
    delivery:
      row.isTest && row.sentAt === null
        ? null
        : {
            status: shownDeliveryStatus(row, now),
            errorCode: row.deliveryErrorCode,
            reason: deliveryReasonOf(row.method, row.deliveryErrorCode),
          },
    redactedAt: row.redactedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    revocationId: row.revocationId ?? null,
    reassignment: reassignmentOf(row),
    carrier: carrierOf(row),
    simSwap: simSwapOf(row),
    refreshes: row.refreshes,
    heldBy: row.heldBy ?? [],
    created: row.createdAt.toISOString(),
  };
}

/**
 * The consent version a row (an attempt or a verification) was made under (issue #18), as the API, the detail and
 * the events show it; null when none was shown. Not masked: it says what the consumer read, nothing about them.
 */
export function consentEvidenceOf(row: {
  consentVersionId: string | null;
  consentVersion: number | null;
  consentLanguage: 'en' | 'es' | null;
  consentSha256: string | null;
}): ConsentEvidence | null {
  const { consentVersionId, consentVersion, consentLanguage, consentSha256 } = row;
  if (
    consentVersionId === null ||
    consentVersion === null ||
    consentLanguage === null ||
    consentSha256 === null
  )
    return null;
  return {
    versionId: consentVersionId,
    version: consentVersion,
    language: consentLanguage,
    sha256: consentSha256,
  };
}
