import {
  type ApiCheckResult,
  type ApiVerification,
  type ApiVerificationStatus,
  MAX_WRONG_TRIES,
  publicVerifyTexts,
  RESEND_AFTER_SECONDS,
} from '@veriform/contracts';
import type { Db } from '@veriform/db';
import { schema } from '@veriform/db';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Config } from '../../config.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import type { AccountContext } from '../../plugins/account-context.ts';
import { ATTEMPT_ID_PATTERN, CODE_PATTERN } from '../public-verify/codes.ts';
import { countryName, maskEmail, maskPhone, parseCellPhone } from '../public-verify/phone.ts';
import type { CodeOutcome, PublicRequestContext, PublicVerifyService } from '../public-verify/service.ts';

const { verificationAttempts } = schema;

/**
 * API v1's verifications: the hosted page's rules (public-verify's issueCode and judgeCode: the same limits, spacing,
 * test numbers, locks and single-winner approval), reached with an API key of the form's account. A verification
 * here is one code sent (a verification attempt); once approved, the activity log holds it like any other, with
 * source `api`. Texts are English: an integrator reads them, not the consumer.
 */

const texts = publicVerifyTexts.en;

/** The start request as validated (the channel defaulted). */
type StartInput = {
  formId: number;
  channel?: 'sms' | 'email' | undefined;
  to?: string | undefined;
  email?: string | undefined;
  externalRefId?: string | undefined;
};

const columns = {
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
};
type AttemptRow = {
  [K in keyof typeof columns]: (typeof columns)[K]['_']['notNull'] extends true
    ? (typeof columns)[K]['_']['data']
    : (typeof columns)[K]['_']['data'] | null;
};

export function createApiVerifications(deps: {
  config: Config;
  db: Db;
  clock: Clock;
  publicVerify: PublicVerifyService;
}) {
  const { config, db, clock, publicVerify } = deps;
  const { issueCode, judgeCode, attemptToJudge, formOfAccount } = publicVerify.internals;

  function statusOf(row: AttemptRow, now: Date): ApiVerificationStatus {
    switch (row.status) {
      case 'verified':
        return 'approved';
      case 'locked':
        return 'max_attempts';
      case 'replaced':
        return 'replaced';
      case 'pending':
        return row.expiresAt.getTime() <= now.getTime() ? 'expired' : 'pending';
    }
  }

  /** Full number and address with `verifications:read` (the activity log's right); masked without. */
  function toApi(ctx: AccountContext, row: AttemptRow): ApiVerification {
    const full = ctx.can('searchData');
    return {
      id: row.id,
      status: statusOf(row, clock.now()),
      formId: row.verifyFormId,
      channel: row.method,
      to: full ? row.cellPhone : maskPhone(row.cellPhone),
      email: row.email === null ? null : full ? row.email : maskEmail(row.email),
      externalRefId: row.externalRefId === '' ? null : row.externalRefId,
      source: row.source,
      test: row.isTest,
      attemptsLeft: Math.max(0, MAX_WRONG_TRIES - row.wrongTries),
      expiresAt: row.expiresAt.toISOString(),
      resendAfter: new Date(row.createdAt.getTime() + RESEND_AFTER_SECONDS * 1000).toISOString(),
      hostedUrl: null,
      approvedAt: row.verifiedAt ? row.verifiedAt.toISOString() : null,
      created: row.createdAt.toISOString(),
    };
  }

  async function rowOf(ctx: AccountContext, id: string): Promise<AttemptRow> {
    if (!ATTEMPT_ID_PATTERN.test(id)) throw new AppError('not_found');
    const [row] = await db
      .select(columns)
      .from(verificationAttempts)
      .where(and(eq(verificationAttempts.id, id), eq(verificationAttempts.accountId, ctx.accountId)))
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
        attemptsLeft: null,
        expiresAt: null,
        resendAfter: null,
        hostedUrl: `${config.publicUrl}/f/${form.publicId}${query}`,
        approvedAt: null,
        created: now.toISOString(),
      };
    }

    const phone = parseCellPhone(input.to);
    if (!phone.ok) {
      const message = phone.reason === 'landline' ? texts.cellPhoneLandline : texts.cellPhoneInvalid;
      throw new AppError('validation_error', { fields: { to: [message] }, problem: 'invalid_phone' });
    }
    if (!form.phoneCountries.includes(phone.country)) {
      throw new AppError('validation_error', {
        fields: { to: [texts.cellPhoneCountry(countryName(phone.country, 'en'))] },
        problem: 'phone_country_not_allowed',
      });
    }
    const channel = input.channel ?? 'sms';
    let email: string | null = null;
    if (channel === 'email') {
      if (!input.email) throw AppError.field('validation_error', 'email', texts.emailRequired);
      if (!z.email().safeParse(input.email).success) {
        throw AppError.field('validation_error', 'email', texts.emailInvalid);
      }
      email = input.email;
    }
    const key = ctx.actor.type === 'api_key' ? ctx.actor : null;
    const issued = await issueCode(form, { phone, method: channel, email, externalRefId }, texts, context, {
      source: 'api',
      apiKeyId: key?.keyId ?? null,
      perIpLimit: false,
      testNumbersOnly: key?.mode === 'test',
    });
    return toApi(ctx, await rowOf(ctx, issued.attemptId));
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
      and(eq(verificationAttempts.id, id), eq(verificationAttempts.accountId, ctx.accountId)),
    );
    if (!attempt) throw new AppError('not_found');
    // As on the hosted page: a form taken offline stops approving at once, codes already sent included.
    if (!attempt.formIsLive) throw formNotLive();
    if (!CODE_PATTERN.test(code)) throw AppError.field('validation_error', 'code', texts.codeFormat);
    const outcome = await judgeCode(attempt, code, context, null);
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
    get: async (ctx: AccountContext, id: string) => toApi(ctx, await rowOf(ctx, id)),
  };
}

export type ApiVerifications = ReturnType<typeof createApiVerifications>;
