import type { ApiReassignmentCheck, ApiReassignmentCheckList } from '@veriform/contracts';
import { type Db, schema, type Tx, transaction } from '@veriform/db';
import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import { ATTEMPT_ID_PATTERN } from '../../domain/api-verification.ts';
import { countryOfNumber } from '../../domain/phone.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import { LookupFailedError } from '../../messaging/lookup.ts';
import { type AccountContext, keyLivemode } from '../../plugins/account-context.ts';
import type { AccountMode, LookupAsker, Lookups } from './service.ts';

const { lookups, reassignmentChecks, verificationAttempts, verifications } = schema;

/** How long a caller waits before retrying a lookup the provider did not answer. */
const RETRY_AFTER_SECONDS = 30;

export const reassignmentTexts = {
  notApproved: 'Only an approved verification has a consent date to check: this one was not approved.',
  email: 'This verification was made by e-mail: it proves no number to check.',
  notUs: 'The reassigned-numbers database covers US numbers only: this verification’s number is not one.',
  redacted: 'This verification was redacted (an erasure request): its number is no longer kept to check.',
  testInApp:
    'This is a test verification: its number is one of the account’s test numbers, which the app does not look up (a test API key may).',
  failed: 'The carrier lookup provider did not answer: nothing was recorded. Retry in a moment.',
} as const;

const DAY_MS = 86_400_000;

/** What the rule of a check needs to know of a verification. */
export type CheckableVerification = {
  method: 'sms' | 'email';
  /** E.164. */
  cellPhone: string;
  verifiedAt: Date | null;
  redactedAt: Date | null;
};

/**
 * Why a verification cannot be checked (its text's key in `reassignmentTexts`), or null when it can: not redacted,
 * approved (a consent date to ask about), by text (a number proven), a US number (the database's coverage). The one
 * home of the rule: the check on demand, the verdict's and the schedule's ask it.
 */
export function notCheckable(
  verification: CheckableVerification,
): 'redacted' | 'notApproved' | 'email' | 'notUs' | null {
  if (verification.redactedAt) return 'redacted';
  if (!verification.verifiedAt) return 'notApproved';
  if (verification.method === 'email') return 'email';
  if (countryOfNumber(verification.cellPhone) !== 'US') return 'notUs';
  return null;
}

/**
 * Whether a verification's check is due at `now`: never checked, or its latest check older than the account's
 * `reassignedMaxAgeDays`. The verdict and the schedule ask it; a check on demand is made whenever asked.
 */
export function checkIsDue(latestCheckedAt: Date | null, maxAgeDays: number, now: Date): boolean {
  return latestCheckedAt === null || now.getTime() - latestCheckedAt.getTime() > maxAgeDays * DAY_MS;
}

/** The UTC date of an instant, as `LastVerifiedDate` is asked (YYYY-MM-DD; Twilio's YYYYMMDD is the client's). */
export const utcDateOf = (instant: Date): string => instant.toISOString().slice(0, 10);

const checkColumns = {
  id: reassignmentChecks.id,
  attemptId: reassignmentChecks.attemptId,
  isTest: reassignmentChecks.isTest,
  checkedAt: reassignmentChecks.checkedAt,
  lastVerifiedDate: lookups.lastVerifiedDate,
  answer: lookups.reassigned,
  errorCode: lookups.errorCode,
  provider: lookups.provider,
};
type CheckRow = {
  id: number;
  attemptId: string;
  isTest: boolean;
  checkedAt: Date;
  lastVerifiedDate: string | null;
  answer: 'yes' | 'no' | 'no_data' | null;
  errorCode: number | null;
  provider: 'twilio';
};

const toCheck = (row: CheckRow): ApiReassignmentCheck => ({
  id: String(row.id),
  verificationId: row.attemptId,
  checkedAt: row.checkedAt.toISOString(),
  lastVerifiedDate: row.lastVerifiedDate ?? '',
  // A record without a reading is no `no`: the answer column is set whenever the lookup was answered.
  answer: row.answer ?? 'no_data',
  errorCode: row.errorCode,
  provider: row.provider,
  livemode: !row.isTest,
});

/**
 * Reassigned-number checks of a verification (issue #36 item 2, ADR 42): the question put through `lookUp` (the
 * verification's number, `LastVerifiedDate` the UTC date of its approval), its record linked to the verification.
 * The same question within the day is answered by the same record, so by the same check (one per verification and
 * record).
 */
export function createReassignmentChecks(deps: {
  db: Db;
  clock: Clock;
  lookups: Lookups;
  /** Called in the check's transaction when a new check answers `yes` (the webhook event's place). */
  onReassigned?: (tx: Tx, accountId: number, check: ApiReassignmentCheck) => Promise<void>;
}) {
  const { db, lookups: carrier, onReassigned } = deps;

  /** The key's own mode only (ADR 29): the other mode's verifications answer 404, as unknown ids do. */
  function ofKeyMode(ctx: AccountContext): SQL | undefined {
    const livemode = keyLivemode(ctx);
    return livemode === null ? undefined : eq(verificationAttempts.isTest, !livemode);
  }

  async function verificationOf(ctx: AccountContext, id: string) {
    return verificationIn(ctx.accountId, ofKeyMode(ctx), id);
  }

  async function verificationIn(accountId: number, mode: SQL | undefined, id: string) {
    if (!ATTEMPT_ID_PATTERN.test(id)) throw new AppError('not_found');
    const [row] = await db
      .select({
        id: verificationAttempts.id,
        accountId: verificationAttempts.accountId,
        isTest: verificationAttempts.isTest,
        method: verificationAttempts.method,
        cellPhone: verificationAttempts.cellPhone,
        verifiedAt: verificationAttempts.verifiedAt,
        redactedAt: verifications.redactedAt,
      })
      .from(verificationAttempts)
      .leftJoin(verifications, eq(verifications.id, verificationAttempts.verificationId))
      .where(and(eq(verificationAttempts.id, id), eq(verificationAttempts.accountId, accountId), mode))
      .limit(1);
    if (!row) throw new AppError('not_found');
    return row;
  }

  const notPossible = (detail: string) =>
    new AppError('validation_error', {
      nonFieldErrors: [detail],
      problem: 'reassignment_check_not_possible',
    });

  /**
   * Asks whether the verification's number was reassigned since its approval, and records the check. `ctx` is an API
   * key's (API v1) or a member's (the app's button, `POST /api/verifications/{id}/reassignment-checks`): a member's
   * lookups are live ones (`lookUp` reads the mode from a key only), so a member may not check a test verification.
   */
  async function check(ctx: AccountContext, id: string): Promise<ApiReassignmentCheck> {
    const verification = await verificationOf(ctx, id);
    if (verification.redactedAt) throw notPossible(reassignmentTexts.redacted);
    if (verification.isTest && keyLivemode(ctx) === null) throw notPossible(reassignmentTexts.testInApp);
    return checkVerification(ctx, verification);
  }

  /**
   * The same check asked by an account in a mode, without a request (the verdict's and the schedule's): a verification
   * of that account and mode (else 404 `not_found`), with the same 422, 503 and 429 as `check`.
   */
  async function checkFor(asker: AccountMode, id: string): Promise<ApiReassignmentCheck> {
    const mode = eq(verificationAttempts.isTest, !asker.livemode);
    return checkVerification(asker, await verificationIn(asker.accountId, mode, id));
  }

  async function checkVerification(
    asker: LookupAsker,
    verification: Awaited<ReturnType<typeof verificationIn>>,
  ): Promise<ApiReassignmentCheck> {
    const why = notCheckable(verification);
    if (why) throw notPossible(reassignmentTexts[why]);
    const { verifiedAt } = verification;
    if (!verifiedAt) throw notPossible(reassignmentTexts.notApproved);

    let record: Awaited<ReturnType<Lookups['lookUp']>>;
    try {
      record = await carrier.lookUp(asker, 'reassigned', verification.cellPhone, {
        lastVerifiedDate: utcDateOf(verifiedAt),
      });
    } catch (error) {
      if (error instanceof LookupFailedError)
        throw new AppError('lookup_failed', {
          detail: reassignmentTexts.failed,
          headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) },
        });
      throw error;
    }

    return transaction(db, async (tx) => {
      const [inserted] = await tx
        .insert(reassignmentChecks)
        .values({
          accountId: verification.accountId,
          isTest: verification.isTest,
          attemptId: verification.id,
          lookupId: record.id,
          checkedAt: record.answeredAt,
        })
        .onConflictDoNothing()
        .returning({ id: reassignmentChecks.id });
      const [row] = await tx
        .select(checkColumns)
        .from(reassignmentChecks)
        .innerJoin(lookups, eq(lookups.id, reassignmentChecks.lookupId))
        .where(
          and(eq(reassignmentChecks.attemptId, verification.id), eq(reassignmentChecks.lookupId, record.id)),
        )
        .limit(1);
      if (!row) throw new Error(`reassignment check of ${verification.id} vanished`);
      const made = toCheck(row);
      // `consent.number_reassigned` goes here, in this transaction, once per check (`inserted` and `yes`): its type
      // waits for the web app's label of it (features/webhooks/labels.ts names every type).
      if (inserted && made.answer === 'yes') await onReassigned?.(tx, verification.accountId, made);
      return made;
    });
  }

  /** Every check of the verification, newest first: a plain list (at most one a day per verification, see ADR 42). */
  async function list(ctx: AccountContext, id: string): Promise<ApiReassignmentCheckList> {
    const verification = await verificationOf(ctx, id);
    const rows = await db
      .select(checkColumns)
      .from(reassignmentChecks)
      .innerJoin(lookups, eq(lookups.id, reassignmentChecks.lookupId))
      .where(eq(reassignmentChecks.attemptId, verification.id))
      .orderBy(desc(reassignmentChecks.checkedAt), desc(reassignmentChecks.id));
    return { data: rows.map(toCheck) };
  }

  return { check, checkFor, list };
}

export type ReassignmentChecks = ReturnType<typeof createReassignmentChecks>;

/**
 * The latest check's columns as a verification's reads select them, beside `latestReassignmentJoin` (one home for
 * the app's detail, the certificate's standing and API v1's object).
 */
export const latestReassignmentColumns = {
  reassignmentCheckedAt: sql<Date | null>`latest_reassignment.checked_at`.mapWith(
    reassignmentChecks.checkedAt,
  ),
  reassignmentLastVerifiedDate: sql<string | null>`latest_reassignment.last_verified_date`.mapWith(
    lookups.lastVerifiedDate,
  ),
  reassignmentAnswer: sql<'yes' | 'no' | 'no_data' | null>`latest_reassignment.answer`,
  reassignmentErrorCode: sql<number | null>`latest_reassignment.error_code`.mapWith(lookups.errorCode),
};

/** The lateral join `latestReassignmentColumns` read: the latest check of the attempt `attemptId` names. */
export const latestReassignmentJoin = (attemptId: SQL): SQL =>
  sql`${latestReassignmentOf(attemptId)} latest_reassignment`;

/**
 * The latest check of a verification (API v1's attempt) as a lateral subquery: `latest_reassignment.checked_at`,
 * `.last_verified_date`, `.answer`, `.error_code`; joined where a verification is answered, and by the verdict.
 */
export function latestReassignmentOf(attemptId: SQL): SQL {
  return sql`(
    select ${reassignmentChecks.checkedAt} as checked_at, ${lookups.lastVerifiedDate} as last_verified_date,
           ${lookups.reassigned} as answer, ${lookups.errorCode} as error_code
    from ${reassignmentChecks} join ${lookups} on ${lookups.id} = ${reassignmentChecks.lookupId}
    where ${reassignmentChecks.attemptId} = ${attemptId}
    order by ${reassignmentChecks.checkedAt} desc, ${reassignmentChecks.id} desc
    limit 1
  )`;
}
