import {
  type CheckCodeResponse,
  CODE_TTL_SECONDS,
  checkCodeRequestSchema,
  type Language,
  MAX_WRONG_TRIES,
  type PublicLanguage,
  type PublicVerifyForm,
  type PublicVerifyTexts,
  publicVerifyTexts,
  RESEND_AFTER_SECONDS,
  type SendCodeResponse,
  sendCodeRequestSchema,
} from '@veriform/contracts';
import type { Db } from '@veriform/db';
import { schema } from '@veriform/db';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Config } from '../../config.ts';
import { deliverWebhook } from '../../jobs/definitions/deliver-webhook.ts';
import { sendVerificationCode } from '../../jobs/definitions/send-verification-code.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError, type FieldErrors } from '../../lib/errors.ts';
import { ipKey } from '../../lib/ip-key.ts';
import { type RateLimitRule, tooMany } from '../../lib/rate-limit.ts';
import { statement } from '../../lib/statement.ts';
import type { CodeDelivery } from '../../messaging/code-delivery.ts';
import { deliveryOutcomeEvent, simulatedDelivery } from '../../messaging/delivery-outcome.ts';
import { findMembership } from '../../plugins/account-context.ts';
import { type CurrentConsent, consentRefusal } from '../consent/service.ts';
import {
  type ApiVerificationRow,
  apiVerificationColumns,
  toApiVerification,
} from '../verifications/api-object.ts';
import { newEventId } from '../webhooks/events.ts';
import {
  ATTEMPT_ID_PATTERN,
  CODE_PATTERN,
  codeMatches,
  hashCode,
  newAttemptId,
  newCode,
  newPageViewId,
} from './codes.ts';
import { countryName, maskEmail, maskFormatted, type PhoneRefusal, parseCellPhone } from './phone.ts';

const { accounts, verifyForms, verificationAttempts, testPhoneNumbers } = schema;

/**
 * The public verification (DESIGN §5): a consumer reads a live form, asks for a code and types it back. No login;
 * every answer — field errors included — is in the form's language (contracts public-verify-texts.ts).
 */

/** Who is asking, as evidence (and for the per-IP limits). */
export type PublicRequestContext = { ip: string; userAgent: string | null };

/** What became of a code: the verification it made, a wrong guess, or an attempt that takes no code any more. */
export type CodeOutcome =
  | { kind: 'approved'; verificationId: number }
  | { kind: 'incorrect'; triesLeft: number }
  | { kind: 'closed'; state: 'verified' | 'locked' | 'replaced' | 'canceled' | 'expired' };

/** Where a code is asked for, and the rules that differ: API v1's caller is a server, not a consumer's browser. */
export type IssueOptions = {
  source: 'hosted' | 'api';
  apiKeyId: number | null;
  /** The per-IP limit guards against one browser running through numbers; an API key is limited per key instead. */
  perIpLimit: boolean;
  /** A `vf_test_` key: only the account's test numbers (403 `test_mode_number_required` otherwise). */
  testNumbersOnly: boolean;
  /**
   * A `vf_live_` key: never a test number (403 `live_mode_test_number`), as Stripe's live mode declines its test cards:
   * what it made would be a test object, which a live key cannot read (issue #33, ADR 29).
   */
  liveNumbersOnly?: boolean;
};

const DAY_MS = 24 * 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;
/** newPublicId() in verify-forms: 16 base64url characters. Anything else is not looked up. */
const PUBLIC_ID_PATTERN = /^[A-Za-z0-9_-]{16}$/;

export type FormRow = {
  id: number;
  publicId: string;
  accountId: number;
  name: string;
  category: string;
  isLive: boolean;
  language: PublicLanguage;
  bannerImage: string | null;
  company: string;
  /** The account's allow-list: codes go only to numbers of these countries. */
  phoneCountries: string[];
};

const formColumns = {
  id: verifyForms.id,
  publicId: verifyForms.publicId,
  accountId: verifyForms.accountId,
  name: verifyForms.name,
  category: verifyForms.category,
  isLive: verifyForms.isLive,
  language: verifyForms.language,
  bannerImage: verifyForms.bannerImage,
  company: accounts.displayName,
  phoneCountries: accounts.phoneCountries,
};

type ZodIssueLike = { path?: PropertyKey[] | undefined; input?: unknown };

const isBlank = (input: unknown) =>
  input === undefined || input === null || (typeof input === 'string' && input.trim() === '');

/**
 * Per-parse error maps (zod 4): every issue of a field gets that field's text in the form's language, instead of the
 * generic English messages the app installs globally.
 */
function sendCodeErrorMap(texts: PublicVerifyTexts) {
  return (issue: ZodIssueLike): string => {
    switch (issue.path?.[0]) {
      case 'cellPhone':
        return isBlank(issue.input) ? texts.cellPhoneRequired : texts.cellPhoneInvalid;
      case 'method':
        return texts.methodInvalid;
      case 'email':
        return texts.emailInvalid;
      case 'externalRefId':
        return texts.externalRefIdInvalid;
      default:
        return texts.requestInvalid;
    }
  };
}

const phoneRefusalText: Record<PhoneRefusal, (texts: PublicVerifyTexts) => string> = {
  invalid: (texts) => texts.cellPhoneInvalid,
  landline: (texts) => texts.cellPhoneLandline,
  unsupported: (texts) => texts.cellPhoneUnsupported,
};

function checkCodeErrorMap(texts: PublicVerifyTexts) {
  return (issue: ZodIssueLike): string => {
    if (issue.path?.[0] !== 'code') return texts.requestInvalid;
    return isBlank(issue.input) ? texts.codeRequired : texts.codeFormat;
  };
}

/** One of the account's test numbers (Settings → Company Info): its fixed code and the outcome its message shows. */
type TestNumber = { code: string; simulatedErrorCode: string | null };

/** A limit of the code send, with the text that tells why it refused (in the form's language). */
type SendLimit = { rule: RateLimitRule; text: (seconds: number) => string };

/** What issue_verification_code (migration 0022) answers; bigint arrives as a string or a number by driver. */
type IssueRow = {
  outcome: 'sent' | 'too_soon' | 'limited';
  wait_ms: string | number;
  refused: number | null;
  deliveries: number;
};

type TestNumberColumns = { code: string | null; simulated_error_code: string | null };

/**
 * The form by its public id with its account's name and countries, its current consent version in its language and,
 * for the code send, the account's test number `$2` (null: none looked up): what the hosted page and send-code read
 * before anything else, in one statement instead of Drizzle's three (issue #20 item 3).
 */
const FORM_SELECT = `
  SELECT f.id, f.public_id AS "publicId", f.account_id AS "accountId", f.name, f.category, f.is_live AS "isLive",
    f.language, f.banner_image AS "bannerImage", a.display_name AS company, a.phone_countries AS "phoneCountries",
    c.id AS "consentId", c.version AS "consentVersion", c.language AS "consentLanguage", c.text AS "consentText",
    c.sha256 AS "consentSha256", c.require_checkbox AS "consentRequireCheckbox"`;
const FORM_FROM = `
  FROM verify_forms f
  JOIN accounts a ON a.id = f.account_id
  LEFT JOIN LATERAL (
    SELECT id, version, language, text, sha256, require_checkbox FROM consent_versions
    WHERE verify_form_id = f.id AND language = f.language
    ORDER BY version DESC LIMIT 1
  ) c ON true`;

type FormStatementRow = FormRow & {
  consentId: string | null;
  consentVersion: number | null;
  consentLanguage: Language | null;
  consentText: string | null;
  consentSha256: string | null;
  consentRequireCheckbox: boolean | null;
};

/**
 * The page (and GET /api/public/verify-forms/{publicId}): the form, and for a live one the visitor's page view
 * recorded with the consent version shown, in one statement. $2 page view id, $3 address, $4 agent, $5 time.
 */
const pageFormStatement = statement<
  FormStatementRow & { pageViewId: string | null; companyDomain: string | null }
>(
  'public_page_form',
  `WITH form AS (${FORM_SELECT}${FORM_FROM}
    WHERE f.public_id = $1
    LIMIT 1
  ), view AS (
    INSERT INTO form_page_views (id, account_id, verify_form_id, language, consent_version_id, ip, user_agent,
      created_at)
    SELECT $2::text, form."accountId", form.id, form.language, form."consentId", $3::text, $4::text,
      $5::timestamptz
    FROM form WHERE form."isLive"
    RETURNING id
  )
  SELECT form.*, (SELECT id FROM view) AS "pageViewId", (
    SELECT d.domain FROM account_domains d
    WHERE d.account_id = form."accountId" AND d.verified_at IS NOT NULL
    ORDER BY d.verified_at, d.id LIMIT 1
  ) AS "companyDomain" FROM form`,
);

/** Send-code: the form, its consent version and whether the number `$2` (E.164, or null) is a test number. */
const sendFormStatement = statement<FormStatementRow & TestNumberColumns>(
  'send_code_form',
  `${FORM_SELECT}, t.code, t.simulated_error_code${FORM_FROM}
  LEFT JOIN LATERAL (
    SELECT code, simulated_error_code FROM test_phone_numbers
    WHERE account_id = f.account_id AND cell_phone = $2::text
    LIMIT 1
  ) t ON true
  WHERE f.public_id = $1
  LIMIT 1`,
);

/** A code send's one statement (migration 0022; ADR 26), its parameters in the function's order. */
const issueStatement = statement<IssueRow>(
  'issue_verification_code',
  `SELECT outcome, wait_ms, refused, deliveries FROM issue_verification_code(
    p_attempt_id => $1::text,
    p_account_id => $2::integer,
    p_form_id => $3::integer,
    p_cell_phone => $4::text,
    p_method => $5::text,
    p_email => $6::text,
    p_external_ref_id => $7::text,
    p_code_hash => $8::text,
    p_ip => $9::text,
    p_user_agent => $10::text,
    p_source => $11::text,
    p_api_key_id => $12::integer,
    p_consent_version_id => $13::text,
    p_consent_version => $14::integer,
    p_consent_language => $15::text,
    p_consent_sha256 => $16::text,
    p_page_view_id => $17::text,
    p_now => $18::timestamptz,
    p_expires_at => $19::timestamptz,
    p_resend_after_ms => $20::bigint,
    p_limits => $21::jsonb,
    p_test_delivery => $22::jsonb,
    p_events => $23::jsonb,
    p_job_name => $24::text,
    p_job_data => $25::jsonb
  )`,
);

function formOf(row: FormStatementRow): FormRow {
  return {
    id: row.id,
    publicId: row.publicId,
    accountId: row.accountId,
    name: row.name,
    category: row.category,
    isLive: row.isLive,
    language: row.language,
    bannerImage: row.bannerImage,
    company: row.company,
    phoneCountries: row.phoneCountries,
  };
}

function consentOf(row: FormStatementRow): CurrentConsent | undefined {
  return row.consentId === null ||
    row.consentVersion === null ||
    row.consentLanguage === null ||
    row.consentText === null ||
    row.consentSha256 === null
    ? undefined
    : {
        id: row.consentId,
        version: row.consentVersion,
        language: row.consentLanguage,
        text: row.consentText,
        sha256: row.consentSha256,
        requireCheckbox: row.consentRequireCheckbox === true,
      };
}

/** What judge_verification_code (migration 0029) answers; bigint arrives as a string or a number by driver. */
type JudgeRow = {
  outcome: 'limited' | 'closed' | 'incorrect' | 'approved';
  retry_ms: string | number | null;
  state: 'verified' | 'locked' | 'replaced' | 'canceled' | 'expired' | null;
  tries_left: number | null;
  verification_id: string | number | null;
  deliveries: number;
};

/**
 * A typed code's judgement in one autocommit statement (migration 0029; it was four after the attempt's read): the
 * per-IP guess limit's locked step, the attempt's guarded update (a wrong code takes a try, the fifth locks it; a
 * right one needs a try left and approves), the code's entry, and for an approval the verification, or for a lock
 * `verification.failed`, with the webhook event's deliveries and their jobs. Why one statement: the approval's insert
 * upserts the form's summary rows, which every verification of that form must lock until its commit; held across
 * round trips to a busy process, that lock queued the form's other verifications behind it with their pool
 * connections (docs/benchmarks.md, Load). Parameters in the function's order.
 */
const judgeStatement = statement<JudgeRow>(
  'judge_verification_code',
  `SELECT outcome, retry_ms, state, tries_left, verification_id, deliveries FROM judge_verification_code(
    p_attempt_id => $1::text,
    p_correct => $2::boolean,
    p_now => $3::timestamptz,
    p_ip => $4::text,
    p_user_agent => $5::text,
    p_bucket => $6::text,
    p_limit => $7::integer,
    p_window_ms => $8::bigint,
    p_max_tries => $9::integer,
    p_form_name => $10::text,
    p_form_category => $11::text,
    p_event_id => $12::text,
    p_event_data => $13::jsonb
  )`,
);

export function createPublicVerifyService(deps: {
  config: Config;
  db: Db;
  clock: Clock;
  codeDelivery: CodeDelivery;
  /** Wakes the workers of the jobs a code send and a code's judgement store in SQL (webhook deliveries, the send). */
  jobs: JobQueue;
}) {
  const { config, db, clock, codeDelivery, jobs } = deps;
  const limits = () => config.codeSendLimits;

  /** API v1: a form of the account by its id (the key's account; another account's form is not found). */
  async function formOfAccount(accountId: number, formId: number): Promise<FormRow | undefined> {
    const [row] = await db
      .select(formColumns)
      .from(verifyForms)
      .innerJoin(accounts, eq(accounts.id, verifyForms.accountId))
      .where(and(eq(verifyForms.id, formId), eq(verifyForms.accountId, accountId)))
      .limit(1);
    return row;
  }

  /** Through the account context's one membership query (ADR 15). */
  const isMember = async (userId: number, accountId: number): Promise<boolean> =>
    (await findMembership(db, userId, accountId)) !== undefined;

  /** The form's public face, with the current consent version of its language (issue #18), which the page shows. */
  const toPublic = (
    form: FormRow,
    consent: CurrentConsent | undefined,
    preview: boolean,
    pageViewId: string | null,
    companyDomain: string | null,
  ): PublicVerifyForm => ({
    publicId: form.publicId,
    name: form.name,
    company: form.company,
    companyDomain,
    language: form.language,
    bannerImage: form.bannerImage,
    preview,
    consent: consent
      ? { versionId: consent.id, text: consent.text, requireCheckbox: consent.requireCheckbox }
      : null,
    pageViewId,
  });

  /**
   * The form's public face, or null (→ 404) when it does not exist or is inactive, and its language (null for an
   * unknown link). A visitor's opening of a live form is recorded, in the same statement, as the page view that
   * send-code links its attempt to. A member of the form's account (`viewerId` logged in) sees an inactive form as a
   * preview, so an owner can check the page before going live; a preview records no view.
   */
  async function shownPage(
    publicId: string,
    viewerId: number | null,
    context: PublicRequestContext,
  ): Promise<{ form: PublicVerifyForm | null; language: PublicLanguage | null }> {
    if (!PUBLIC_ID_PATTERN.test(publicId)) return { form: null, language: null };
    const [row] = await pageFormStatement(db, [
      publicId,
      newPageViewId(),
      context.ip,
      context.userAgent,
      // The app's clock, as the attempts': the timeline orders the view against them.
      clock.now().toISOString(),
    ]);
    if (!row) return { form: null, language: null };
    const form = formOf(row);
    const consent = consentOf(row);
    if (form.isLive)
      return {
        form: toPublic(form, consent, false, row.pageViewId, row.companyDomain),
        language: form.language,
      };
    if (viewerId !== null && (await isMember(viewerId, form.accountId)))
      return { form: toPublic(form, consent, true, null, row.companyDomain), language: form.language };
    return { form: null, language: form.language };
  }

  /** GET /api/public/verify-forms/{publicId}: the form as the page shows it, or null. */
  async function publicForm(
    publicId: string,
    viewerId: number | null,
    context: PublicRequestContext,
  ): Promise<PublicVerifyForm | null> {
    return (await shownPage(publicId, viewerId, context)).form;
  }

  /**
   * The page /f/{publicId}: the form as publicForm shows it, and the form's language, which its "not available"
   * page speaks too when the form is inactive (null for an unknown link).
   */
  const publicPage = shownPage;

  /** The account's test number with this E.164 number, if it is one. */
  async function findTestNumber(accountId: number, e164: string): Promise<TestNumber | null> {
    const [row] = await db
      .select({ code: testPhoneNumbers.code, simulatedErrorCode: testPhoneNumbers.simulatedErrorCode })
      .from(testPhoneNumbers)
      .where(and(eq(testPhoneNumbers.accountId, accountId), eq(testPhoneNumbers.cellPhone, e164)))
      .limit(1);
    return row ?? null;
  }

  /**
   * The limits of one send, in the order their refusals are told. Test numbers send nothing, so only the per-IP
   * limit (which guards the server, not the bill) applies to them.
   */
  function sendLimits(
    form: FormRow,
    target: { e164: string; method: 'sms' | 'email'; email: string | null },
    texts: PublicVerifyTexts,
    context: PublicRequestContext,
    options: IssueOptions,
    isTest: boolean,
  ): SendLimit[] {
    const perIp: SendLimit[] = options.perIpLimit
      ? [
          {
            rule: {
              bucket: `code-send:ip:${ipKey(context.ip)}`,
              limit: limits().perIpPerDay,
              windowMs: DAY_MS,
            },
            text: texts.tooManyFromIp,
          },
        ]
      : [];
    if (isTest) return perIp;
    const { e164, method, email } = target;
    return [
      {
        rule: { bucket: `code-send:phone:${e164}`, limit: limits().perPhonePerDay, windowMs: DAY_MS },
        text: texts.tooManyForPhone,
      },
      // An inbox is guarded like a phone: nobody may bomb an address with codes through our forms.
      ...(email
        ? [
            {
              rule: {
                bucket: `code-send:email:${email.toLowerCase()}`,
                limit: limits().perEmailPerDay,
                windowMs: DAY_MS,
              },
              text: texts.tooManyForEmail,
            },
          ]
        : []),
      ...perIp,
      // Per account and channel: text messages cost money (toll fraud), so they have their own, configurable cap, and
      // reaching it leaves e-mail open.
      method === 'sms'
        ? {
            rule: {
              bucket: `code-send:account-sms:${form.accountId}`,
              limit: limits().smsPerAccountPerDay,
              windowMs: DAY_MS,
            },
            text: texts.tooManySmsForAccount,
          }
        : {
            rule: {
              bucket: `code-send:account-email:${form.accountId}`,
              limit: limits().emailPerAccountPerDay,
              windowMs: DAY_MS,
            },
            text: texts.tooManyEmailsForAccount,
          },
    ];
  }

  /**
   * Sends a code to a checked number through a live form, by every rule of the public page (ADR 12): 30 s between
   * codes to one number per form, the limits per phone, e-mail, IP and account, older pending codes replaced. The
   * hosted page and API v1 both come here.
   *
   * One round trip (ADR 26): everything that needs no data is done here first — the code and its HMAC, the sealed job
   * payload, and the webhook events' data, built from the row the send will insert (all of it known now) — and
   * issue_verification_code (migration 0022) does the rest in one statement: the locks, the spacing and the limits
   * under them, the replacement of older codes, the attempt, its delivery history, the events and the job. No pooled
   * connection waits on this process in between.
   */
  async function issueCode(
    form: FormRow,
    target: {
      phone: Extract<ReturnType<typeof parseCellPhone>, { ok: true }>;
      method: 'sms' | 'email';
      email: string | null;
      externalRefId: string;
      /** The consent version the page showed (issue #18), recorded with the attempt; none through API v1. */
      consent?: CurrentConsent | undefined;
      /** The page view the code was asked from (issue #18); none through API v1. */
      pageViewId?: string | undefined;
      /** The number as a test number, when the caller has looked it up already (null: it is none). */
      testNumber?: TestNumber | null | undefined;
    },
    texts: PublicVerifyTexts,
    context: PublicRequestContext,
    options: IssueOptions,
  ): Promise<{
    attemptId: string;
    expiresAt: Date;
    createdAt: Date;
    isTest: boolean;
    /** The attempt as committed, as its `verification.code_sent` event shows it (API v1 answers it, no re-read). */
    stored: ApiVerificationRow;
  }> {
    const { phone, email, method } = target;
    const now = clock.now();
    const testNumber =
      target.testNumber === undefined ? await findTestNumber(form.accountId, phone.e164) : target.testNumber;
    if (options.testNumbersOnly && !testNumber) {
      throw new AppError('permission_denied', {
        detail: 'A test key sends codes only to the account’s test numbers (Settings → Company Info).',
        problem: 'test_mode_number_required',
      });
    }
    if (options.liveNumbersOnly && testNumber) {
      throw new AppError('permission_denied', {
        detail:
          'This is one of the account’s test numbers: start its verifications with a `vf_test_` key (a live key sends real codes).',
        problem: 'live_mode_test_number',
      });
    }
    const sendRules = sendLimits(
      form,
      { e164: phone.e164, method, email },
      texts,
      context,
      options,
      !!testNumber,
    );

    const attemptId = newAttemptId();
    const code = testNumber?.code ?? newCode();
    const expiresAt = new Date(now.getTime() + CODE_TTL_SECONDS * 1000);
    const consent = target.consent;
    // A test number sends nothing: its whole history is simulated at once, ending as the number's settings say.
    const simulated = testNumber ? simulatedDelivery(method, testNumber.simulatedErrorCode) : null;
    // A new attempt has no verification yet, so nothing of it is redacted (issue #19's `redactedAt`).
    const unredacted = { redactedAt: null };
    const stored: ApiVerificationRow = {
      ...unredacted,
      id: attemptId,
      status: 'pending',
      verifyFormId: form.id,
      method,
      cellPhone: phone.e164,
      email,
      externalRefId: target.externalRefId,
      source: options.source,
      isTest: testNumber !== null,
      wrongTries: 0,
      expiresAt,
      createdAt: now,
      verifiedAt: null,
      sentAt: simulated ? now : null,
      ip: context.ip,
      userAgent: context.userAgent,
      consentVersionId: consent?.id ?? null,
      consentVersion: consent?.version ?? null,
      consentLanguage: consent?.language ?? null,
      consentSha256: consent?.sha256 ?? null,
      deliveryStatus: simulated?.status ?? 'queued',
      deliveryErrorCode: simulated?.errorCode ?? null,
    };
    const outcomeEvent = simulated ? deliveryOutcomeEvent(stored, now) : null;
    const events = [
      { type: 'verification.code_sent', data: toApiVerification(stored, now, true) },
      ...(outcomeEvent ? [outcomeEvent] : []),
    ].map((event) => ({ id: newEventId(), ...event }));
    const job = testNumber ? null : codeDelivery.job({ attemptId, code });

    const [row] = await issueStatement(db, [
      attemptId,
      form.accountId,
      form.id,
      phone.e164,
      method,
      email,
      target.externalRefId,
      hashCode(config.secretKey, attemptId, code),
      context.ip,
      context.userAgent,
      options.source,
      options.apiKeyId,
      consent?.id ?? null,
      consent?.version ?? null,
      consent?.language ?? null,
      consent?.sha256 ?? null,
      target.pageViewId ?? null,
      now.toISOString(),
      expiresAt.toISOString(),
      RESEND_AFTER_SECONDS * 1000,
      JSON.stringify(sendRules.map(({ rule }) => rule)),
      simulated ? JSON.stringify(simulated) : null,
      JSON.stringify(events),
      job?.name ?? null,
      job ? JSON.stringify(job.data) : null,
    ]);
    if (!row) throw new Error('issue_verification_code answered no row');
    const waitMs = Number(row.wait_ms);
    if (row.outcome === 'too_soon') {
      const seconds = Math.ceil(waitMs / 1000);
      throw new AppError('rate_limited', {
        detail: texts.resendTooSoon(seconds),
        headers: { 'Retry-After': String(seconds) },
      });
    }
    if (row.outcome === 'limited') {
      const refused = row.refused === null ? undefined : sendRules[row.refused - 1];
      if (!refused) throw new Error('issue_verification_code refused by an unknown limit');
      throw tooMany(
        { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) },
        refused.text,
      );
    }
    // The jobs are committed: this process's workers need not wait for their next poll.
    if (job) jobs.wake(sendVerificationCode);
    if (row.deliveries > 0) jobs.wake(deliverWebhook);

    return { attemptId, expiresAt, createdAt: now, isTest: testNumber !== null, stored };
  }

  async function sendCode(
    publicId: string,
    body: unknown,
    context: PublicRequestContext,
  ): Promise<SendCodeResponse> {
    // The body is read before the form, so that the number's test-number lookup rides in the form's statement (one
    // round trip). Its field messages are in the form's language: a body that fails is parsed again once that is known.
    const early = sendCodeRequestSchema.safeParse(body);
    const phone = early.success ? parseCellPhone(early.data.cellPhone) : undefined;
    const [row] = PUBLIC_ID_PATTERN.test(publicId)
      ? await sendFormStatement(db, [publicId, phone?.ok ? phone.e164 : null])
      : [];
    // Sending needs a live form; previews never send.
    if (!row?.isLive) throw new AppError('not_found');
    const form = formOf(row);
    const texts = publicVerifyTexts[form.language];
    if (!early.success || !phone) {
      const parsed = sendCodeRequestSchema.safeParse(body, { error: sendCodeErrorMap(texts) });
      throw AppError.fromIssues((parsed.error ?? early.error)?.issues ?? []);
    }
    const request = early.data;
    const fields: FieldErrors = {};
    if (!phone.ok) fields.cellPhone = [phoneRefusalText[phone.reason](texts)];
    else if (!form.phoneCountries.includes(phone.country)) {
      fields.cellPhone = [texts.cellPhoneCountry(countryName(phone.country, form.language))];
    }
    let email: string | null = null;
    if (request.method === 'email') {
      if (!request.email) fields.email = [texts.emailRequired];
      else if (!z.email().safeParse(request.email).success) fields.email = [texts.emailInvalid];
      else email = request.email;
    }
    const consent = consentOf(row);
    const testNumber: TestNumber | null =
      row.code === null ? null : { code: row.code, simulatedErrorCode: row.simulated_error_code };
    const refusal = consentRefusal(consent, request);
    if (refusal) fields.consentAccepted = [refusal === 'stale' ? texts.consentStale : texts.consentRequired];
    if (!phone.ok || Object.keys(fields).length > 0) throw new AppError('validation_error', { fields });

    const issued = await issueCode(
      form,
      {
        phone,
        method: request.method,
        email,
        externalRefId: request.externalRefId ?? '',
        consent,
        pageViewId: request.pageViewId,
        testNumber,
      },
      texts,
      context,
      { source: 'hosted', apiKeyId: null, perIpLimit: true, testNumbersOnly: false },
    );
    const { attemptId, expiresAt } = issued;

    return {
      attemptId,
      resendAfterSeconds: RESEND_AFTER_SECONDS,
      expiresAt: expiresAt.toISOString(),
      sentTo: email ? maskEmail(email) : maskFormatted(phone.international, phone.e164),
      cellPhone: phone.international,
    };
  }

  type AttemptState = {
    status: 'pending' | 'verified' | 'locked' | 'replaced' | 'canceled';
    expiresAt: Date;
  };
  /** Why an attempt takes no code: its state, or its time ran out. */
  type Closed = Extract<CodeOutcome, { kind: 'closed' }>['state'];

  function closedState(attempt: AttemptState, now: Date): Closed | null {
    if (attempt.status !== 'pending') return attempt.status;
    return attempt.expiresAt.getTime() <= now.getTime() ? 'expired' : null;
  }

  const closedText: Record<Closed, (texts: PublicVerifyTexts) => string> = {
    verified: (texts) => texts.codeUsed,
    locked: (texts) => texts.codeLocked,
    replaced: (texts) => texts.codeReplaced,
    canceled: (texts) => texts.codeCanceled,
    expired: (texts) => texts.codeExpired,
  };

  /** With the whole row API v1 shows: the events of a right and of a last wrong code carry it. */
  type AttemptToJudge = AttemptState &
    ApiVerificationRow & {
      accountId: number;
      codeHash: string;
      formName: string;
      formCategory: string;
    };

  /** The per-IP limit on wrong guesses (the hosted page's), and its state as read with the attempt, if it was. */
  type WrongChecks = {
    rule: RateLimitRule;
    text: (seconds: number) => string;
    /** The limit-th newest guess in the window (epoch ms), null when there is none: read with the attempt. */
    seen: { limitingMs: number | null };
  };

  /** rate-limit.ts's decision from the limit-th newest event of the window (none: allowed unless the limit is 0). */
  function limitDecision(rule: RateLimitRule, limitingMs: number | null, nowMs: number) {
    if (rule.limit > 0 && limitingMs === null) return { allowed: true, retryAfterSeconds: 0 };
    const retryAfterMs = limitingMs === null ? rule.windowMs : limitingMs + rule.windowMs - nowMs;
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) };
  }

  /**
   * A code against an attempt, for the hosted page and API v1 alike. `wrongChecks` is the per-IP limit on guesses
   * (the hosted page's; an API key has its own request limit instead). An exhausted limit refuses before the code is
   * compared, right or wrong alike (nothing tells the two apart). The comparison is made here, timing-safe, against
   * the hash read with the attempt (it never changes); judge_verification_code then applies its outcome under the
   * limit's lock and the attempt's row lock (ADR 12), so a burst of guesses from one IP gets exactly the limit
   * judged, and of a burst at one attempt nothing is judged after the fifth wrong code, a right code among them or not.
   */
  async function judgeCode(
    attempt: AttemptToJudge,
    code: string,
    context: PublicRequestContext,
    wrongChecks: WrongChecks | null,
  ): Promise<CodeOutcome> {
    const now = clock.now();
    const closed = closedState(attempt, now);
    if (closed) return { kind: 'closed', state: closed };
    if (wrongChecks) {
      // The reading taken with the attempt refuses an exhausted limit without the locked step.
      const decision = limitDecision(wrongChecks.rule, wrongChecks.seen.limitingMs, now.getTime());
      if (!decision.allowed) throw tooMany(decision, wrongChecks.text);
    }
    const correct = codeMatches(config.secretKey, attempt.id, code, attempt.codeHash);
    // The event the outcome stores, built from the row as read and what the statement sets: `verification.approved`
    // for a right code, `verification.failed` should this wrong code be the fifth (stored only then).
    const event = correct
      ? toApiVerification({ ...attempt, status: 'verified', verifiedAt: now }, now, true)
      : toApiVerification({ ...attempt, status: 'locked', wrongTries: MAX_WRONG_TRIES }, now, true);
    const rule = wrongChecks?.rule;
    const [row] = await judgeStatement(db, [
      attempt.id,
      correct,
      now.toISOString(),
      context.ip,
      context.userAgent,
      rule?.bucket ?? null,
      rule?.limit ?? null,
      rule?.windowMs ?? null,
      MAX_WRONG_TRIES,
      attempt.formName,
      attempt.formCategory,
      newEventId(),
      JSON.stringify(event),
    ]);
    if (!row) throw new Error('judge_verification_code answered no row');
    // The deliveries' jobs are committed: this process's worker need not wait for its next poll.
    if (row.deliveries > 0) jobs.wake(deliverWebhook);
    switch (row.outcome) {
      case 'limited':
        if (!wrongChecks) throw new Error('judge_verification_code refused a judgement that had no limit');
        throw tooMany(
          { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(Number(row.retry_ms) / 1000)) },
          wrongChecks.text,
        );
      case 'closed':
        return { kind: 'closed', state: row.state ?? 'locked' };
      case 'incorrect':
        return { kind: 'incorrect', triesLeft: row.tries_left ?? 0 };
      case 'approved':
        return { kind: 'approved', verificationId: Number(row.verification_id) };
    }
  }

  async function checkCode(
    attemptId: string,
    body: unknown,
    context: PublicRequestContext,
  ): Promise<CheckCodeResponse> {
    if (!ATTEMPT_ID_PATTERN.test(attemptId)) throw new AppError('not_found');
    const now = clock.now();
    const rule: RateLimitRule = {
      bucket: `code-check-wrong:ip:${ipKey(context.ip)}`,
      limit: limits().wrongChecksPerIpPerHour,
      windowMs: HOUR_MS,
    };
    const [found] = await hostedAttemptQuery.execute({
      id: attemptId,
      bucket: rule.bucket,
      since: new Date(now.getTime() - rule.windowMs).toISOString(),
      offset: Math.max(0, rule.limit - 1),
    });
    // A form taken offline stops collecting verifications at once, codes already sent included.
    if (!found?.formIsLive) throw new AppError('not_found');
    const { limitingMs, ...attempt } = found;
    const texts = publicVerifyTexts[attempt.language];

    const parsed = checkCodeRequestSchema.safeParse(body, { error: checkCodeErrorMap(texts) });
    if (!parsed.success) throw AppError.fromIssues(parsed.error.issues);
    const { code } = parsed.data;
    // Not a try: a typo in the shape of the code costs the consumer nothing.
    if (code === '') throw AppError.field('validation_error', 'code', texts.codeRequired);
    if (!CODE_PATTERN.test(code)) throw AppError.field('validation_error', 'code', texts.codeFormat);

    const outcome = await judgeCode(attempt, code, context, {
      rule,
      text: texts.tooManyChecks,
      seen: { limitingMs: limitingMs === null ? null : Number(limitingMs) },
    });
    switch (outcome.kind) {
      case 'approved':
        return { verified: true, verificationId: outcome.verificationId };
      case 'closed':
        throw AppError.field('validation_error', 'code', closedText[outcome.state](texts));
      case 'incorrect':
        throw AppError.field(
          'validation_error',
          'code',
          outcome.triesLeft > 0 ? texts.codeWrong(outcome.triesLeft) : texts.codeLocked,
        );
    }
  }

  /** What judging a code needs of its attempt: the row API v1 shows, its form's name, category, state and language. */
  const judgeColumns = {
    ...apiVerificationColumns,
    accountId: verificationAttempts.accountId,
    codeHash: verificationAttempts.codeHash,
    formName: verifyForms.name,
    formCategory: verifyForms.category,
    formIsLive: verifyForms.isLive,
    language: verifyForms.language,
  };

  /** An attempt with what judging its code needs. */
  async function attemptToJudge(where: SQL | undefined) {
    const [attempt] = await db
      .select(judgeColumns)
      .from(verificationAttempts)
      .innerJoin(verifyForms, eq(verifyForms.id, verificationAttempts.verifyFormId))
      .where(where)
      .limit(1);
    return attempt;
  }

  /**
   * The hosted check's first statement, prepared once: the attempt, and the per-IP wrong-guess limit as rate-limit.ts
   * reads it (the limit-th newest event of the window, in epoch ms), which does not depend on the code typed.
   */
  const hostedAttemptQuery = db
    .select({
      ...judgeColumns,
      limitingMs: sql<number | string | null>`(
        select (extract(epoch from e.created_at) * 1000)::float8 from rate_limit_events e
        where e.bucket = ${sql.placeholder('bucket')}::text and e.created_at > ${sql.placeholder('since')}::timestamptz
        order by e.created_at desc offset ${sql.placeholder('offset')}::integer limit 1)`,
    })
    .from(verificationAttempts)
    .innerJoin(verifyForms, eq(verifyForms.id, verificationAttempts.verifyFormId))
    .where(eq(verificationAttempts.id, sql.placeholder('id')))
    .limit(1)
    .prepare('code_check_attempt');

  return {
    publicForm,
    publicPage,
    sendCode,
    checkCode,
    /** For API v1 (modules/api-v1/verifications.ts): the same rules, reached through an account's key. */
    internals: { issueCode, judgeCode, attemptToJudge, formOfAccount },
  };
}

export type PublicVerifyService = ReturnType<typeof createPublicVerifyService>;
