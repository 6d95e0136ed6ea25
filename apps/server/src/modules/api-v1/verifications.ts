import {
  type ApiCheckResult,
  type ApiVerification,
  type ApiVerificationList,
  type ApiVerificationStatus,
  type apiVerificationListQuerySchema,
  publicVerifyTexts,
} from '@veriform/contracts';
import type { Db } from '@veriform/db';
import { schema, transaction } from '@veriform/db';
import { and, eq, gte, lt, type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Config } from '../../config.ts';
import {
  type ApiVerificationRow,
  apiVerificationColumns,
  apiVerificationStatus,
  toApiVerification,
} from '../../domain/api-verification.ts';
import {
  checkCellPhone,
  countryName,
  maskPhone,
  type PhoneRefusal,
  parseCellPhone,
} from '../../domain/phone.ts';
import type { Clock } from '../../lib/clock.ts';
import { notACursor } from '../../lib/cursor-pages.ts';
import { AppError } from '../../lib/errors.ts';
import { type AccountContext, keyLivemode } from '../../plugins/account-context.ts';
import {
  ATTEMPT_ID_PATTERN,
  type AttemptStore,
  CODE_PATTERN,
  type CodeOutcome,
  expiredSql,
  type FormRow,
  openSql,
  type PublicRequestContext,
} from '../attempts/index.ts';
import type { AuditLog } from '../audit/index.ts';
import { heldBy } from '../legal-holds/index.ts';
import { latestReassignmentColumns, latestReassignmentJoin } from '../lookups/index.ts';
import { firstRevocationSince } from '../revocations/index.ts';

const { verificationAttempts, revocations } = schema;
type AttemptRow = ApiVerificationRow;

/**
 * The first revocation since approval (issue #35), by the revocations module's rule: `since` is the approval, so a
 * code not approved has none; the attempt's own mode, so a test revocation never reaches a live verification.
 */
const firstRevocation = sql`${firstRevocationSince({
  accountId: sql`${verificationAttempts.accountId}`,
  isTest: sql`${verificationAttempts.isTest}`,
  phone: sql`${verificationAttempts.cellPhone}`,
  email: sql`${verificationAttempts.email}`,
  since: sql`${verificationAttempts.verifiedAt}`,
})} first_revocation`;
/** The latest reassigned-number check of the verification (issue #36), by the lookups module's rule. */
const latestReassignment = latestReassignmentJoin(sql`${verificationAttempts.id}`);
/**
 * The legal holds that reach the verification (issue #37), by the holds module's rule: the attempt's account, form,
 * number and address, and its verification once approved. One small subquery per row (an account has few holds).
 */
const heldByColumn = sql<string[]>`${heldBy({
  accountId: verificationAttempts.accountId,
  verifyFormId: verificationAttempts.verifyFormId,
  cellPhone: verificationAttempts.cellPhone,
  email: verificationAttempts.email,
  id: verificationAttempts.verificationId,
})}`.mapWith((value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []));
const columns = {
  ...apiVerificationColumns,
  heldBy: heldByColumn,
  revokedAt: sql<Date | null>`first_revocation.received_at`.mapWith(revocations.receivedAt),
  revocationId: sql<string | null>`first_revocation.id`,
  ...latestReassignmentColumns,
};

/**
 * The key's own mode only (issue #33, ADR 29): a `vf_test_` key's verifications are the test ones, a `vf_live_` key's
 * the live ones; the other mode's answer as unknown ids do (404, never 403, so nothing can be probed).
 */
const ofKeyMode = (ctx: AccountContext): SQL | undefined => {
  const livemode = keyLivemode(ctx);
  return livemode === null ? undefined : eq(verificationAttempts.isTest, !livemode);
};

/**
 * API v1's verifications: the hosted page's rules (public-verify's issueCode and judgeCode: the same limits, spacing,
 * test numbers, locks and single-winner approval), reached with an API key of the form's account. A verification
 * here is one code sent (a verification attempt); once approved, the activity log holds it like any other, with
 * source `api`. Texts are English: an integrator reads them, not the consumer.
 */

const texts = publicVerifyTexts.en;

type ApiVerificationListQuery = z.output<typeof apiVerificationListQuerySchema>;

/** The start request as validated (the channel defaulted). */
type StartInput = {
  formId: number;
  channel?: 'sms' | 'email' | undefined;
  to?: string | undefined;
  email?: string | undefined;
  externalRefId?: string | undefined;
};

export function createApiVerifications(deps: {
  config: Config;
  db: Db;
  clock: Clock;
  /** The attempt's owner: API v1 is its adapter (English texts, a key's mode and limits). */
  attempts: AttemptStore;
  /** The audit log (issue #16): a key reading a verification in full is recorded, as a person's view is. */
  audit: AuditLog;
}) {
  const { config, db, clock, attempts, audit } = deps;
  const { formOfAccount, attemptToJudge } = attempts;

  /** Full number and address with `verifications:read` (the activity log's right); masked without. */
  const toApi = (ctx: AccountContext, row: AttemptRow): ApiVerification =>
    toApiVerification(row, clock.now(), ctx.can('searchData'));
  const statusOf = apiVerificationStatus;

  async function rowOf(ctx: AccountContext, id: string, tx: Db = db): Promise<AttemptRow> {
    if (!ATTEMPT_ID_PATTERN.test(id)) throw new AppError('not_found');
    const [row] = await tx
      .select(columns)
      .from(verificationAttempts)
      .leftJoinLateral(firstRevocation, sql`true`)
      .leftJoinLateral(latestReassignment, sql`true`)
      .where(
        and(
          eq(verificationAttempts.id, id),
          eq(verificationAttempts.accountId, ctx.accountId),
          ofKeyMode(ctx),
        ),
      )
      .limit(1);
    if (!row) throw new AppError('not_found');
    return row;
  }

  const formNotLive = () =>
    new AppError('validation_error', {
      nonFieldErrors: ['This form is inactive: make it live before starting verifications with it.'],
      problem: 'form_not_live',
    });

  async function start(
    ctx: AccountContext,
    input: StartInput,
    context: PublicRequestContext,
  ): Promise<ApiVerification> {
    const form = await formOfAccount(ctx.accountId, input.formId);
    if (!form)
      throw new AppError('not_found', { detail: 'No form with this `formId` in this key’s account.' });
    if (!form.isLive) throw formNotLive();
    const externalRefId = input.externalRefId ?? '';
    const now = clock.now();

    if (input.to === undefined) {
      const query = externalRefId ? `?ref=${encodeURIComponent(externalRefId)}` : '';
      return {
        id: null,
        status: 'pending',
        formId: form.id,
        channel: null,
        to: null,
        email: null,
        externalRefId: externalRefId || null,
        source: 'hosted',
        test: false,
        // The key's mode: no code was sent yet (the one the page sends is test only for a test number).
        livemode: keyLivemode(ctx) !== false,
        attemptsLeft: null,
        expiresAt: null,
        resendAfter: null,
        hostedUrl: `${config.publicUrl}/f/${form.publicId}${query}`,
        approvedAt: null,
        sentAt: null,
        evidence: null,
        // The hosted page shows the consent text; the code asked for there records it.
        consent: null,
        delivery: null,
        redactedAt: null,
        revokedAt: null,
        revocationId: null,
        reassignment: null,
        carrier: null,
        simSwap: null,
        refreshes: null,
        heldBy: [],
        created: now.toISOString(),
      };
    }

    const phone = checkCellPhone(parseCellPhone(input.to), form.phoneCountries);
    if (!phone.ok && phone.reason === 'country') {
      throw new AppError('validation_error', {
        fields: { to: [texts.cellPhoneCountry(countryName(phone.country, 'en'))] },
        problem: 'phone_country_not_allowed',
      });
    }
    // A number the pattern calls a landline goes on to the attempt's rules: the carrier may know it as a cell phone.
    const cellPhone = phone.ok ? phone : phone.reason === 'landline' ? phone.fixedLine : undefined;
    if (!cellPhone) throw phoneRefused(phone.ok ? 'invalid' : phone.reason);
    const channel = input.channel ?? 'sms';
    let email: string | null = null;
    if (channel === 'email') {
      if (!input.email) throw AppError.field('validation_error', 'email', texts.emailRequired);
      if (!z.email().safeParse(input.email).success) {
        throw AppError.field('validation_error', 'email', texts.emailInvalid);
      }
      email = input.email;
    }
    return sendTo(
      ctx,
      form,
      { phone: cellPhone, landlineByPattern: !phone.ok, method: channel, email, externalRefId },
      context,
    );
  }

  /** A number refused by its pattern or by the carrier's answers (issue #36), in API v1's words. */
  function phoneRefused(reason: PhoneRefusal | 'sim_swap'): AppError {
    if (reason === 'sim_swap')
      return new AppError('validation_error', {
        fields: { to: [texts.cellPhoneSimSwap] },
        problem: 'sim_swap_recent',
      });
    const message = reason === 'landline' ? texts.cellPhoneLandline : texts.cellPhoneInvalid;
    return new AppError('validation_error', { fields: { to: [message] }, problem: 'invalid_phone' });
  }

  /** A code through the hosted page's rules, as the key's: its id, its mode (test numbers only), no per-IP limit. */
  async function sendTo(
    ctx: AccountContext,
    form: FormRow,
    target: Parameters<AttemptStore['issue']>[1],
    context: PublicRequestContext,
  ): Promise<ApiVerification> {
    const key = ctx.actor.type === 'api_key' ? ctx.actor : null;
    const issued = await attempts.issue(form, target, texts, context, {
      source: 'api',
      apiKeyId: key?.keyId ?? null,
      perIpLimit: false,
      testNumbersOnly: key?.mode === 'test',
      liveNumbersOnly: key?.mode === 'live',
      phoneRefused,
    });
    // The row as committed (issue #20: a send is 3 round trips): the send job may have moved it on since, as a GET shows.
    return toApi(ctx, issued.stored);
  }

  const notPending = (status: ApiVerificationStatus) =>
    new AppError('validation_error', {
      nonFieldErrors: [`This verification is ${status.replace('_', ' ')}: it takes no new code.`],
      problem: 'verification_not_pending',
    });

  /**
   * A new code for a pending (or just expired) verification: a new verification to the same number, address and
   * reference through the same form, under the same rules (30 s between codes, the daily limits), which replaces
   * this one. The answer is the new verification.
   */
  async function resend(
    ctx: AccountContext,
    id: string,
    context: PublicRequestContext,
  ): Promise<ApiVerification> {
    const row = await rowOf(ctx, id);
    const status = statusOf(row, clock.now());
    if (status !== 'pending' && status !== 'expired') throw notPending(status);
    const form = await formOfAccount(ctx.accountId, row.verifyFormId);
    if (!form?.isLive) throw formNotLive();
    const phone = parseCellPhone(row.cellPhone);
    // A pattern's landline the carrier called mobile got its code: the attempt's rules ask the carrier again.
    const cellPhone = phone.ok ? phone : phone.reason === 'landline' ? phone.fixedLine : undefined;
    if (!cellPhone) throw notPending(status);
    return sendTo(
      ctx,
      form,
      {
        phone: cellPhone,
        landlineByPattern: !phone.ok,
        method: row.method,
        email: row.email,
        externalRefId: row.externalRefId,
      },
      context,
    );
  }

  /** Its code stops working at once. Canceling a canceled one answers it again; any other state is a 409. */
  async function cancel(ctx: AccountContext, id: string): Promise<ApiVerification> {
    const row = await rowOf(ctx, id);
    const canceled = await attempts.cancel(row.id, ctx.accountId, ofKeyMode(ctx));
    if (canceled) return toApi(ctx, canceled);
    const current = await rowOf(ctx, id);
    if (current.status === 'canceled') return toApi(ctx, current);
    throw notPending(statusOf(current, clock.now()));
  }

  /** Status as stored, and `pending`/`expired` split by the clock. */
  function statusWhere(status: ApiVerificationStatus, now: Date): SQL | undefined {
    switch (status) {
      case 'approved':
        return eq(verificationAttempts.status, 'verified');
      case 'max_attempts':
        return eq(verificationAttempts.status, 'locked');
      case 'replaced':
      case 'canceled':
        return eq(verificationAttempts.status, status);
      case 'pending':
        return openSql(now);
      case 'expired':
        return expiredSql(now);
    }
  }

  /**
   * Rows after the cursor's verification in (created, id) order, as one row comparison the index serves directly (an
   * OR of the two columns made PostgreSQL walk the account from the top: 18 ms at row 10,000, 0.1 ms this way). The
   * cursor's instant is read in SQL, never through a JavaScript Date, which would drop its microseconds.
   */
  const afterCursor = (ctx: AccountContext, startingAfter: string): SQL => {
    // A cursor of the other mode is no cursor of this list (none found: an empty page, then the 400 below).
    const livemode = keyLivemode(ctx);
    const sameMode = livemode === null ? sql`` : sql` and c.is_test = ${!livemode}`;
    return sql`(${verificationAttempts.createdAt}, ${verificationAttempts.id}) < (
      select c.created_at, c.id from ${verificationAttempts} c where c.id = ${startingAfter}
        and c.account_id = ${ctx.accountId}${sameMode})`;
  };

  /** An empty page after a cursor: fine for a real one (the list's end), a 400 for one that is not of this list. */
  async function assertCursor(ctx: AccountContext, startingAfter: string): Promise<void> {
    const [cursor] = ATTEMPT_ID_PATTERN.test(startingAfter)
      ? await db
          .select({ id: verificationAttempts.id })
          .from(verificationAttempts)
          .where(
            and(
              eq(verificationAttempts.id, startingAfter),
              eq(verificationAttempts.accountId, ctx.accountId),
              ofKeyMode(ctx),
            ),
          )
          .limit(1)
      : [];
    if (!cursor) throw notACursor();
  }

  /**
   * Newest first by (created, id), a keyset page: a verification made while a caller pages lands before its first
   * page, never inside it, and none is skipped or repeated. Each filter has an index that ends in that order
   * (migration 0012), so a page costs the same at a million rows as at ten.
   */
  async function list(ctx: AccountContext, query: ApiVerificationListQuery): Promise<ApiVerificationList> {
    const now = clock.now();
    const { startingAfter } = query;
    if (startingAfter !== undefined && !ATTEMPT_ID_PATTERN.test(startingAfter))
      await assertCursor(ctx, startingAfter);
    const after = startingAfter === undefined ? undefined : afterCursor(ctx, startingAfter);
    const from = query['created[gte]'];
    const until = query['created[lt]'];
    const rows = await db
      .select(columns)
      .from(verificationAttempts)
      .leftJoinLateral(firstRevocation, sql`true`)
      .leftJoinLateral(latestReassignment, sql`true`)
      .where(
        and(
          eq(verificationAttempts.accountId, ctx.accountId),
          ofKeyMode(ctx),
          query.formId === undefined ? undefined : eq(verificationAttempts.verifyFormId, query.formId),
          query.externalRefId === undefined
            ? undefined
            : eq(verificationAttempts.externalRefId, query.externalRefId),
          query.status === undefined ? undefined : statusWhere(query.status, now),
          from === undefined ? undefined : gte(verificationAttempts.createdAt, new Date(from)),
          until === undefined ? undefined : lt(verificationAttempts.createdAt, new Date(until)),
          after,
        ),
      )
      // NULLS LAST as the indexes are built (drizzle's desc()), so the planner reads them in order.
      .orderBy(
        sql`${verificationAttempts.createdAt} desc nulls last`,
        sql`${verificationAttempts.id} desc nulls last`,
      )
      .limit(query.limit + 1);
    if (rows.length === 0 && startingAfter !== undefined) await assertCursor(ctx, startingAfter);
    const page = rows.slice(0, query.limit).map((row) => toApi(ctx, row));
    const hasMore = rows.length > query.limit;
    const last = page.at(-1);
    return { data: page, hasMore, nextCursor: hasMore && last?.id ? last.id : null };
  }

  /**
   * One verification. With `verifications:read` (the full number and evidence, the activity log's right) the read is
   * recorded as `verification.viewed`, in its transaction, as the activity log's detail is; a masked answer
   * (`verifications:write` alone) shows nothing a log would need to account for, and is not.
   */
  async function get(ctx: AccountContext, id: string): Promise<ApiVerification> {
    if (!ctx.can('searchData')) return toApi(ctx, await rowOf(ctx, id));
    const row = await transaction(db, async (tx) => {
      const found = await rowOf(ctx, id, tx);
      await audit.record(tx, ctx, {
        action: 'verification.viewed',
        targets: [{ type: 'verification', id: found.id, name: maskPhone(found.cellPhone) }],
      });
      return found;
    });
    return toApi(ctx, row);
  }

  const resultOf: Record<
    CodeOutcome['kind'] | `closed:${Extract<CodeOutcome, { kind: 'closed' }>['state']}`,
    ApiCheckResult['status']
  > = {
    approved: 'approved',
    incorrect: 'incorrect',
    closed: 'expired',
    'closed:verified': 'already_approved',
    'closed:locked': 'max_attempts',
    'closed:replaced': 'replaced',
    'closed:canceled': 'canceled',
    'closed:expired': 'expired',
  };

  async function check(
    ctx: AccountContext,
    id: string,
    code: string,
    context: PublicRequestContext,
  ): Promise<ApiCheckResult> {
    if (!ATTEMPT_ID_PATTERN.test(id)) throw new AppError('not_found');
    const attempt = await attemptToJudge(
      and(eq(verificationAttempts.id, id), eq(verificationAttempts.accountId, ctx.accountId), ofKeyMode(ctx)),
    );
    if (!attempt) throw new AppError('not_found');
    // As on the hosted page: a form taken offline stops approving at once, codes already sent included.
    if (!attempt.formIsLive) throw formNotLive();
    if (!CODE_PATTERN.test(code)) throw AppError.field('validation_error', 'code', texts.codeFormat);
    const outcome = await attempts.judge(attempt, code, context, null);
    const status =
      outcome.kind === 'closed'
        ? resultOf[`closed:${outcome.state}`]
        : outcome.kind === 'incorrect' && outcome.triesLeft === 0
          ? 'max_attempts'
          : resultOf[outcome.kind];
    const verification = toApi(ctx, await rowOf(ctx, id));
    return { status, attemptsLeft: verification.attemptsLeft ?? 0, verification };
  }

  return {
    start,
    check,
    resend,
    cancel,
    list,
    get,
  };
}

export type ApiVerifications = ReturnType<typeof createApiVerifications>;
