import {
  type CheckCodeResponse,
  checkCodeRequestSchema,
  type Language,
  type PublicLanguage,
  type PublicRevocationResponse,
  type PublicRevokeTexts,
  type PublicVerifyForm,
  type PublicVerifyTexts,
  publicRevocationRequestSchema,
  publicRevokeTexts,
  publicVerifyTexts,
  RESEND_AFTER_SECONDS,
  type SendCodeResponse,
  sendCodeRequestSchema,
} from '@veriform/contracts';
import type { Db } from '@veriform/db';
import { z } from 'zod';
import type { Config } from '../../config.ts';
import {
  checkCellPhone,
  countryName,
  e164Of,
  maskEmail,
  maskFormatted,
  type PhoneRefusal,
  parseCellPhone,
} from '../../domain/phone.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError, type FieldErrors } from '../../lib/errors.ts';
import { ipKey } from '../../lib/ip-key.ts';
import type { RateLimiter, RateLimitRule } from '../../lib/rate-limit.ts';
import { statement } from '../../lib/statement.ts';
import { findMembership } from '../../plugins/account-context.ts';
import {
  ATTEMPT_ID_PATTERN,
  type AttemptStore,
  type Closed,
  CODE_PATTERN,
  type FormRow,
  newPageViewId,
  type PublicRequestContext,
  type TestNumber,
} from '../attempts/index.ts';
import { type CurrentConsent, consentRefusal } from '../consent/index.ts';
import { type LookupSettingsColumns, lookupsAtSendOf } from '../lookups/index.ts';
import type { Revocations } from '../revocations/index.ts';

/**
 * The public verification (DESIGN §5): a consumer reads a live form, asks for a code and types it back. No login;
 * every answer — field errors included — is in the form's language (contracts public-verify-texts.ts).
 */

const HOUR_MS = 60 * 60 * 1000;

/**
 * The public revocation page's limit (issue #35), per connection (IPv6 by its /64) and counted in `rate_limit_events`
 * like every limit: a household or an office revokes a few times at most, while a script filling the page with
 * strangers' numbers (each revocation is real, and may ask for a text) is stopped after 20 an hour. Refused requests
 * are not counted; invalid ones are refused before the count.
 */
export const REVOCATION_PAGE_LIMITS = { perIp: { limit: 20, windowMs: HOUR_MS } } as const;
/** newPublicId() in verify-forms: 16 base64url characters. Anything else is not looked up. */
const PUBLIC_ID_PATTERN = /^[A-Za-z0-9_-]{16}$/;

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

/** The revocation page's body: every issue of a field gets that field's text in the form's language. */
function revokeErrorMap(texts: PublicRevokeTexts) {
  return (issue: ZodIssueLike): string => {
    switch (issue.path?.[0]) {
      case 'phone':
        return texts.phoneInvalid;
      case 'email':
        return texts.emailInvalid;
      case 'confirm':
        return texts.confirmInvalid;
      default:
        return texts.requestInvalid;
    }
  };
}

type TestNumberColumns = { code: string | null; simulated_error_code: string | null };

/**
 * The form by its public id with its account's name and countries, its current consent version in its language and,
 * for the code send, the account's test number `$2` (null: none looked up) and the carrier lookups it asks (issue #36,
 * lookup_settings: all null without a row): what the hosted page and send-code read before anything else, in one
 * statement instead of Drizzle's three (issue #20 item 3).
 */
const FORM_SELECT = `
  SELECT f.id, f.public_id AS "publicId", f.account_id AS "accountId", f.name, f.category, f.is_live AS "isLive",
    f.language, f.banner_image AS "bannerImage", a.display_name AS company, a.phone_countries AS "phoneCountries",
    c.id AS "consentId", c.version AS "consentVersion", c.language AS "consentLanguage", c.text AS "consentText",
    c.sha256 AS "consentSha256", c.require_checkbox AS "consentRequireCheckbox",
    ls.line_type AS "lookupLineType", ls.sim_swap AS "lookupSimSwap",
    ls.sim_swap_window_days AS "lookupSimSwapWindowDays", ls.refuse_on_sim_swap AS "lookupRefuseOnSimSwap"`;
const FORM_FROM = `
  FROM verify_forms f
  JOIN accounts a ON a.id = f.account_id
  LEFT JOIN lookup_settings ls ON ls.account_id = f.account_id
  LEFT JOIN LATERAL (
    SELECT id, version, language, text, sha256, require_checkbox FROM consent_versions
    WHERE verify_form_id = f.id AND language = f.language
    ORDER BY version DESC LIMIT 1
  ) c ON true`;

type FormStatementRow = Omit<FormRow, 'lookupsAtSend'> &
  LookupSettingsColumns & {
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

type RevokeFormRow = Pick<
  FormRow,
  'publicId' | 'accountId' | 'name' | 'isLive' | 'language' | 'bannerImage' | 'company' | 'phoneCountries'
> & { companyDomain: string | null };

/**
 * The form as its revocation page and the revocation read it (issue #35): its face, its account's countries and
 * first verified domain. No page view is recorded: revoking is not a step of the verification's funnel.
 */
const revokeFormStatement = statement<RevokeFormRow>(
  'revoke_page_form',
  `SELECT f.public_id AS "publicId", f.account_id AS "accountId", f.name, f.is_live AS "isLive", f.language,
    f.banner_image AS "bannerImage", a.display_name AS company, a.phone_countries AS "phoneCountries", (
      SELECT d.domain FROM account_domains d
      WHERE d.account_id = f.account_id AND d.verified_at IS NOT NULL
      ORDER BY d.verified_at, d.id LIMIT 1
    ) AS "companyDomain"
  FROM verify_forms f
  JOIN accounts a ON a.id = f.account_id
  WHERE f.public_id = $1
  LIMIT 1`,
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
    lookupsAtSend: lookupsAtSendOf(row),
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

export type { PublicRequestContext };

export function createPublicVerifyService(deps: {
  config: Config;
  db: Db;
  clock: Clock;
  /** The attempt's owner: the hosted page is its adapter (texts, per-IP limits, page views, consent). */
  attempts: AttemptStore;
  /** The revocation page's revocations (issue #35): this service is their adapter (texts, per-IP limit). */
  revocations: Revocations;
  rateLimit: RateLimiter;
}) {
  const { config, db, clock, attempts, revocations, rateLimit } = deps;
  const limits = () => config.codeSendLimits;

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
    const checked = checkCellPhone(phone, form.phoneCountries);
    if (!checked.ok) {
      fields.cellPhone = [
        checked.reason === 'country'
          ? texts.cellPhoneCountry(countryName(checked.country, form.language))
          : phoneRefusalText[checked.reason](texts),
      ];
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
    // A number the pattern calls a landline, when nothing else is wrong, goes on to the attempt's rules: the carrier,
    // where the account asks it, may know it as a cell phone (issue #36 item 1); else they refuse it with this text.
    const fixedLine =
      !checked.ok && checked.reason === 'landline' && Object.keys(fields).length === 1
        ? checked.fixedLine
        : undefined;
    const cellPhone = checked.ok ? checked : fixedLine;
    if (!cellPhone || (checked.ok && Object.keys(fields).length > 0))
      throw new AppError('validation_error', { fields });

    const issued = await attempts.issue(
      form,
      {
        phone: cellPhone,
        landlineByPattern: !checked.ok,
        method: request.method,
        email,
        externalRefId: request.externalRefId ?? '',
        consent,
        pageViewId: request.pageViewId,
        testNumber,
        refreshToken: request.refresh,
      },
      texts,
      context,
      {
        source: 'hosted',
        apiKeyId: null,
        perIpLimit: true,
        testNumbersOnly: false,
        phoneRefused: (reason) =>
          AppError.field(
            'validation_error',
            'cellPhone',
            reason === 'sim_swap' ? texts.cellPhoneSimSwap : phoneRefusalText[reason](texts),
          ),
      },
    );
    const { attemptId, expiresAt } = issued;

    return {
      attemptId,
      resendAfterSeconds: RESEND_AFTER_SECONDS,
      expiresAt: expiresAt.toISOString(),
      sentTo: email ? maskEmail(email) : maskFormatted(cellPhone.international, cellPhone.e164),
      cellPhone: cellPhone.international,
    };
  }

  const closedText: Record<Closed, (texts: PublicVerifyTexts) => string> = {
    verified: (texts) => texts.codeUsed,
    locked: (texts) => texts.codeLocked,
    replaced: (texts) => texts.codeReplaced,
    canceled: (texts) => texts.codeCanceled,
    expired: (texts) => texts.codeExpired,
  };

  async function checkCode(
    attemptId: string,
    body: unknown,
    context: PublicRequestContext,
  ): Promise<CheckCodeResponse> {
    if (!ATTEMPT_ID_PATTERN.test(attemptId)) throw new AppError('not_found');
    const rule: RateLimitRule = {
      bucket: `code-check-wrong:ip:${ipKey(context.ip)}`,
      limit: limits().wrongChecksPerIpPerHour,
      windowMs: HOUR_MS,
    };
    const attempt = await attempts.attemptToJudgeById(attemptId);
    // A form taken offline stops collecting verifications at once, codes already sent included.
    if (!attempt?.formIsLive) throw new AppError('not_found');
    const texts = publicVerifyTexts[attempt.language];

    const parsed = checkCodeRequestSchema.safeParse(body, { error: checkCodeErrorMap(texts) });
    if (!parsed.success) throw AppError.fromIssues(parsed.error.issues);
    const { code } = parsed.data;
    // Not a try: a typo in the shape of the code costs the consumer nothing.
    if (code === '') throw AppError.field('validation_error', 'code', texts.codeRequired);
    if (!CODE_PATTERN.test(code)) throw AppError.field('validation_error', 'code', texts.codeFormat);

    const outcome = await attempts.judge(attempt, code, context, { rule, text: texts.tooManyChecks });
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

  async function revokeForm(publicId: string): Promise<RevokeFormRow | undefined> {
    if (!PUBLIC_ID_PATTERN.test(publicId)) return undefined;
    const [row] = await revokeFormStatement(db, [publicId]);
    return row;
  }

  /**
   * The page /f/{publicId}/revoke (issue #35): the live form's face as the hosted page's data carries it (no consent,
   * no page view, never a preview), or null with the form's language (inactive) or none (unknown).
   */
  async function revokePage(
    publicId: string,
  ): Promise<{ form: PublicVerifyForm | null; language: PublicLanguage | null }> {
    const row = await revokeForm(publicId);
    if (!row) return { form: null, language: null };
    if (!row.isLive) return { form: null, language: row.language };
    return {
      form: {
        publicId: row.publicId,
        name: row.name,
        company: row.company,
        companyDomain: row.companyDomain,
        language: row.language,
        bannerImage: row.bannerImage,
        preview: false,
        consent: null,
        pageViewId: null,
      },
      language: row.language,
    };
  }

  /**
   * POST /api/public/verify-forms/{publicId}/revocations (issue #35; FCC 24-24: by any reasonable means, no proof of
   * ownership asked): a revocation of the live form's account, by a number (any valid one: a landline may have been
   * called) or an address, answered 201 alike whether or not the account knows it. The one confirmation text is
   * queued only for a number a code could go to (a cell phone of the account's countries), so the page cannot be made
   * to text a premium-rate line.
   */
  async function revoke(
    publicId: string,
    body: unknown,
    context: PublicRequestContext,
  ): Promise<PublicRevocationResponse> {
    const form = await revokeForm(publicId);
    if (!form?.isLive) throw new AppError('not_found');
    const texts = publicRevokeTexts[form.language];
    const parsed = publicRevocationRequestSchema.safeParse(body, { error: revokeErrorMap(texts) });
    if (!parsed.success) throw AppError.fromIssues(parsed.error.issues);
    const { phone: typedPhone, email: typedEmail, confirm } = parsed.data;
    if (!typedPhone && !typedEmail) throw AppError.field('validation_error', 'phone', texts.phoneOrEmail);
    const fields: FieldErrors = {};
    const phone = typedPhone ? e164Of(typedPhone) : null;
    if (typedPhone && !phone) fields.phone = [texts.phoneInvalid];
    const emailValid = typedEmail ? z.email().safeParse(typedEmail).success : false;
    if (typedEmail && !emailValid) fields.email = [texts.emailInvalid];
    if (Object.keys(fields).length > 0) throw new AppError('validation_error', { fields });

    await rateLimit.consume(
      [{ bucket: `revocation-page:ip:${ipKey(context.ip)}`, ...REVOCATION_PAGE_LIMITS.perIp }],
      texts.tooManyFromIp,
    );
    const textable =
      confirm === true &&
      typedPhone !== undefined &&
      checkCellPhone(parseCellPhone(typedPhone), form.phoneCountries).ok;
    return revocations.recordFromPage(
      { accountId: form.accountId, language: form.language },
      { phone, email: typedEmail && emailValid ? typedEmail : null },
      { confirm: textable },
    );
  }

  return {
    publicForm,
    publicPage,
    sendCode,
    checkCode,
    revokePage,
    revoke,
  };
}

export type PublicVerifyService = ReturnType<typeof createPublicVerifyService>;
