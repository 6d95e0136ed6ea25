import { z } from 'zod';
import { apiPageQuerySchema, apiPageSchema } from './api-v1.ts';
import { contactabilitySearchSchema } from './contactability-search.ts';
import { isoDateTimeSchema } from './date-filters.ts';
import { endpoint, ok } from './endpoints.ts';
import { listResponseSchema } from './lists.ts';
import { reassignedAnswers } from './lookups.ts';
import { ofQueryAccount } from './verifications.ts';

/**
 * "May I contact this number now?" (issue #35): the verdict a customer's systems ask for before every call or text,
 * and keep as proof that they checked. Consent is the account's newest verification of the number at the instant
 * asked about, younger than the account's consent age and not revoked since; for marketing, the number's local time
 * must fall within the federal and state calling windows (apps/server/src/domain/calling-windows.ts: rules as data,
 * with their sources and dates).
 */

export const contactChannels = ['sms', 'voice'] as const;
export const contactPurposes = ['marketing', 'informational'] as const;

/** Why a verdict refuses; a code, once published, keeps its meaning. */
export const contactabilityReasonCodes = [
  /** No verification of this number in the account (in this mode) at that instant. */
  'no_consent',
  /** The newest verification is older than the account's consent age (`consentMaxAgeMonths`). */
  'consent_too_old',
  /** A revocation was received after the newest verification. */
  'revoked',
  /** Marketing outside 8:00–21:00 at the number's local time (47 CFR 64.1200(c)(1)). */
  'quiet_hours',
  /** Marketing outside a stricter state window (Florida, Oklahoma, Maryland, Texas). */
  'state_quiet_hours',
  /** The latest reassigned-number check of the consent's verification answered `yes` (issue #36). */
  'number_reassigned',
] as const;
export type ContactabilityReasonCode = (typeof contactabilityReasonCodes)[number];

/** A year either side of now: a verdict is asked for a contact about to happen or one to be explained. */
export const CONTACTABILITY_AT_RANGE_DAYS = 366;
export const CONTACTABILITY_BATCH_MAX = 1000;

const phoneField = z
  .string()
  .trim()
  .min(1)
  .max(32)
  .meta({ description: 'The number to contact: E.164 (`+15005550006`), or a US number as typed.' });

/** One question: a number, how and why it is to be contacted, and when (now when left out). GET's query string. */
export const contactabilityQuerySchema = z.object({
  phone: phoneField,
  channel: z.enum(contactChannels).default('sms'),
  purpose: z.enum(contactPurposes).default('marketing').meta({
    description:
      'Quiet hours refuse `marketing` only; for `informational` the local time and window are reported without refusing.',
  }),
  at: isoDateTimeSchema.optional().meta({
    description: `The instant of the contact (ISO 8601), within ${CONTACTABILITY_AT_RANGE_DAYS} days of now; now when left out.`,
  }),
});
/** The same question in a batch's body (a named schema of the document; a query string takes none). */
export const contactabilityQuestionSchema = contactabilityQuerySchema.meta({ id: 'ContactabilityQuestion' });
export type ContactabilityQuestion = z.output<typeof contactabilityQuestionSchema>;

/**
 * What the verdict did about the consent's reassigned-number check (issue #36, ADR 43), without a reason's text:
 * - `off`: the account's `reassignedChecks` is off: nothing asked (its latest check, if any, still counts);
 * - `not_due`: no consent stands (none, too old, revoked): there was nothing to check;
 * - `reused`: the latest check is younger than the account's `reassignedMaxAgeDays`: judged on it;
 * - `made`: a due check was made before judging, and judged on;
 * - `not_possible`: the consent cannot be checked (by e-mail, or not a US number);
 * - `failed`: the provider did not answer the due check;
 * - `ceiling_reached`: the account's monthly ceiling of checks is reached: nothing was asked;
 * - `timed_out`: the due check did not end within the verdict's wait (a batch's checks go 8 at once); it is kept when
 *   it ends, for the next verdict.
 * After the last four, the verdict is judged on what was known: the latest check, if any.
 */
export const reassignmentCheckNotes = [
  'off',
  'not_due',
  'reused',
  'made',
  'not_possible',
  'failed',
  'ceiling_reached',
  'timed_out',
] as const;
export type ReassignmentCheckNote = (typeof reassignmentCheckNotes)[number];

export const contactabilityReasonSchema = z
  .object({ code: z.enum(contactabilityReasonCodes), text: z.string() })
  .meta({ id: 'ContactabilityReason' });
export type ContactabilityReason = z.infer<typeof contactabilityReasonSchema>;

export const contactabilityVerdictSchema = z
  .object({
    id: z.string().meta({ description: 'The kept check: list them at `GET /api/v1/contactability/checks`.' }),
    phone: z.string().meta({ description: 'E.164.' }),
    channel: z.enum(contactChannels),
    purpose: z.enum(contactPurposes),
    at: z.string().meta({ description: 'The instant asked about.' }),
    allowed: z.boolean(),
    reasons: z.array(contactabilityReasonSchema).meta({ description: 'Why not; empty when allowed.' }),
    consent: z
      .object({
        verificationId: z.string().meta({ description: 'The approved verification, as API v1 names it.' }),
        verifiedAt: z.string(),
        certificateId: z
          .string()
          .nullable()
          .meta({ description: 'Null until its certificate is first asked for.' }),
      })
      .nullable()
      .meta({
        description: 'The newest verification of the number at that instant, whether or not it still stands.',
      }),
    revokedAt: z
      .string()
      .nullable()
      .meta({ description: 'When consent was revoked after that verification.' }),
    revocationId: z.string().nullable(),
    timeZone: z.string().nullable().meta({
      description:
        'IANA zone from the area code (US numbers; when an area code spans zones, the one giving the stricter answer).',
    }),
    localTime: z
      .string()
      .nullable()
      .meta({ description: 'The instant in that zone, ISO 8601 with its offset.' }),
    state: z.string().nullable().meta({ description: 'The area code’s state (USPS code).' }),
    withinCallingWindow: z.boolean().nullable().meta({
      description: 'Whether every federal and state window is open then; null for a number we cannot place.',
    }),
    nextAllowedAt: z.string().nullable().meta({
      description:
        'When refused for quiet hours only: when the window opens. Null when allowed or when time will not help.',
    }),
    reassignment: z
      .object({
        checkedAt: z.string().meta({ description: 'When the check was answered.' }),
        answer: z.enum(reassignedAnswers).meta({
          description:
            '`yes`: reassigned since the consent (the verdict refuses, `number_reassigned`); `no`; `no_data` (no data, never a `no`).',
        }),
      })
      .nullable()
      .meta({
        description:
          'The reassigned-number check of the consent the verdict relied on (the latest when it judged); null when there was none (and on verdicts kept before these checks existed).',
      }),
    reassignmentCheck: z.enum(reassignmentCheckNotes).nullable().meta({
      description:
        'What the verdict did about that check: `off` (the account does not check), `not_due` (no consent stands), `reused` (younger than the account’s `reassignedMaxAgeDays`), `made` (asked before judging), or a due check not made, judged on what was known: `not_possible` (by e-mail, not a US number), `failed` (the provider did not answer), `ceiling_reached` (the monthly ceiling), `timed_out` (not answered within the verdict’s wait; kept when it ends). Null on verdicts kept before these checks existed.',
    }),
    rulesVersion: z.string().meta({ description: 'The version of the calling-window rules applied.' }),
    checkedAt: z.string(),
    livemode: z.boolean(),
  })
  .meta({ id: 'ContactabilityVerdict' });
export type ContactabilityVerdict = z.infer<typeof contactabilityVerdictSchema>;

export const contactabilityBatchRequestSchema = z
  .object({ checks: z.array(contactabilityQuestionSchema).min(1).max(CONTACTABILITY_BATCH_MAX) })
  .meta({ id: 'ContactabilityBatchRequest' });
export const contactabilityBatchSchema = z
  .object({ results: z.array(contactabilityVerdictSchema) })
  .meta({ id: 'ContactabilityBatch' });

export const contactabilityCheckListQuerySchema = apiPageQuerySchema.extend({
  phone: phoneField.optional().meta({ description: 'Only the checks of this number.' }),
});
export type ContactabilityCheckListQuery = z.infer<typeof contactabilityCheckListQuerySchema>;
export const contactabilityCheckListSchema = apiPageSchema(contactabilityVerdictSchema);
export type ContactabilityCheckList = z.infer<typeof contactabilityCheckListSchema>;

export const contactabilityTexts = {
  no_consent: 'No verification of this number in this account before that time.',
  consent_too_old: (months: number) =>
    `The newest verification is older than ${months} months (the account’s setting).`,
  revoked: 'Consent was revoked after the newest verification.',
  number_reassigned:
    'The reassigned-numbers database says this number was disconnected since the newest verification: that consent no longer covers it.',
  invalidPhone: 'Enter a valid phone number, with its country code if it is not a US number.',
  atOutOfRange: `Ask about a time within ${CONTACTABILITY_AT_RANGE_DAYS} days of now.`,
} as const;

// ---- The app (session API): Activity Log › Contactability ---------------------------------------------------------

/**
 * A kept verdict as the app lists it: API v1's object, who asked (a member's e-mail or an API key's prefix) and the
 * consent's verification as the Activity Log names it (its page), when it can still be found.
 */
export const contactabilityCheckSchema = contactabilityVerdictSchema.extend({
  askedBy: z.string(),
  /** The Activity Log's id of the consent's verification (`/activity-log/:id`); null without one. */
  consentLogId: z.number().int().nullable(),
});
export type ContactabilityCheck = z.infer<typeof contactabilityCheckSchema>;

export const contactabilityCheckPageSchema = listResponseSchema(contactabilityCheckSchema);
export type ContactabilityCheckPage = z.infer<typeof contactabilityCheckPageSchema>;

const accountQuerySchema = z.object({ account: z.coerce.number().int().positive() });

export const contactabilityCheckPageQuerySchema = contactabilitySearchSchema.extend(accountQuerySchema.shape);

/**
 * The session API's verdicts (issue #35): owners and members with canSearchData (`checkContactability`): the app's
 * verdicts are the live ones (test keys' stay in API v1). Another account's id answers 404.
 */
export const contactabilityEndpoints = {
  /** The verdicts kept (every asker: members and API keys), newest first, filtered by number and verdict. */
  list: endpoint('GET /api/contactability/checks', {
    query: contactabilityCheckPageQuerySchema,
    response: ok(contactabilityCheckPageSchema),
    access: ofQueryAccount('checkContactability'),
  }),
  /** A member asks: the verdict, kept like API v1's, asked by the member's e-mail. */
  check: endpoint('POST /api/contactability', {
    query: accountQuerySchema,
    body: contactabilityQuerySchema,
    response: ok(contactabilityCheckSchema),
    access: ofQueryAccount('checkContactability'),
  }),
};
