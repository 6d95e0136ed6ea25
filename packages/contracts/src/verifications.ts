import { z } from 'zod';
import {
  apiCarrierSchema,
  apiReassignmentCheckListSchema,
  apiReassignmentCheckSchema,
  apiReassignmentSchema,
  apiRefreshLinkSchema,
  apiSimSwapSchema,
  type ReassignmentAnswer,
} from './api-v1.ts';
import { consentEvidenceSchema } from './consent.ts';
import { csvList, datePresets, localDateSchema, timeZoneSchema } from './date-filters.ts';
import { anyIdParams, created, endpoint, ok } from './endpoints.ts';
import { legalHoldScopes } from './legal-hold-search.ts';
import { bigIdParamsSchema, listResponseSchema } from './lists.ts';
import { verificationMethodSchema, verificationMethods } from './public-verify.ts';
import type { RevocationChannel } from './revocations.ts';
import type { Capability } from './teams.ts';
import { formCategorySchema } from './verify-forms.ts';

// Verifications: the activity log (SPEC §2 /activity-log/), its detail page, the dashboard report and the CSV export.
// Every call takes `account` (the current membership's account) and is scoped to it on the server.

/** Where a verification was made: the form's hosted page, or API v1 from the customer's own systems (issue #15). */
export const verificationSources = ['hosted', 'api'] as const;
export const verificationSourceSchema = z.enum(verificationSources);
export type VerificationSource = z.infer<typeof verificationSourceSchema>;

/** A verification (DESIGN §5). */
export const verificationSchema = z.object({
  id: z.number().int(),
  /** E.164. */
  cellPhone: z.string(),
  externalRefId: z.string(),
  verifyFormId: z.number().int(),
  verifyFormName: z.string(),
  verifyFormCategory: z.string(),
  verificationMethod: verificationMethodSchema,
  isTest: z.boolean(),
  source: verificationSourceSchema,
  created: z.string(),
  /**
   * When the consumer revoked consent for this number or address (issue #35): the first open or acknowledged
   * revocation of the same mode received at or after the verification. The verification stays evidence of its moment;
   * a later verification is new consent. Null when none (modules/revocations/standing.ts is the rule).
   */
  revokedAt: z.string().nullable(),
  revocationId: z.string().nullable(),
});
export type Verification = z.infer<typeof verificationSchema>;
export const verificationListSchema = listResponseSchema(verificationSchema);
export type VerificationList = z.infer<typeof verificationListSchema>;

/** Sort keys of the activity log (SPEC §2); a minus means descending. Unknown values fall back to -created. */
export const verificationSortKeys = [
  'cellPhone',
  'externalRefId',
  'verifyFormId',
  'verifyFormName',
  'verifyFormCategory',
  'created',
] as const;
export type VerificationSortKey = (typeof verificationSortKeys)[number];
export const verificationSorts = [
  'cellPhone',
  '-cellPhone',
  'externalRefId',
  '-externalRefId',
  'verifyFormId',
  '-verifyFormId',
  'verifyFormName',
  '-verifyFormName',
  'verifyFormCategory',
  '-verifyFormCategory',
  'created',
  '-created',
] as const;
export type VerificationSort = (typeof verificationSorts)[number];

/** SPEC §9 default page size; the maximum keeps one answer small whatever a shared link asks for. */
export const VERIFICATION_PAGE_SIZE_DEFAULT = 10;
export const VERIFICATION_PAGE_SIZE_MAX = 100;
export const verificationPageSizes = [10, 25, 50, 100] as const;

/**
 * The filters shared by the log, the report and the export. Every bad value falls back (never an error): a bookmarked
 * or hand-edited link always opens. `verificationMethod__in` may hold `all`, which means no method filter.
 */
export const verificationFilterSchema = z.object({
  verifyFormId__in: csvList(z.coerce.number().int().positive().max(2_147_483_647))
    .optional()
    .catch(undefined),
  verifyFormCategory__in: csvList(formCategorySchema).optional().catch(undefined),
  verificationMethod__in: csvList(z.enum(['all', ...verificationMethods]))
    .optional()
    .catch(undefined),
  /** One source, or none for both (issue #15). Not one of SPEC §2's params: a single value, as there are two. */
  source: verificationSourceSchema.optional().catch(undefined),
  created__date__preset: z.enum(datePresets).catch('all').default('all'),
  created__date__gte: localDateSchema.optional().catch(undefined),
  created__date__lte: localDateSchema.optional().catch(undefined),
  /** The browser's IANA zone; presets and days resolve in it (fallback America/New_York). */
  tz: timeZoneSchema.optional(),
  /** Phone in any common format, external reference, or form name. */
  q: z.string().trim().max(200).optional().catch(undefined),
});
export type VerificationFilter = z.infer<typeof verificationFilterSchema>;

/**
 * Live or test data (issue #33, ADR 29), as Stripe's dashboard toggles it: the activity log and the attempts view show
 * live objects unless `mode=test` is asked; test objects are those made for the account's test numbers (`isTest`).
 * A bad value falls back to live. The dashboard's report has no such param: it is live data.
 */
export const verificationModes = ['live', 'test'] as const;
export const verificationModeSchema = z.enum(verificationModes);
export type VerificationMode = z.infer<typeof verificationModeSchema>;
export const modeFilter = { mode: verificationModeSchema.catch('live').default('live') };

/**
 * The log's revoked filter (issue #35): `true` only verifications whose consent was revoked since, `false` only the
 * others; absent: both. The log's and the export's, not the report's (its counts come from summaries).
 */
export const revokedFilterSchema = z
  .union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')])
  .optional()
  .catch(undefined);

/** /activity-log/ and /activity-log/{id} search params (SPEC §2). */
export const verificationSearchSchema = verificationFilterSchema.extend({
  ...modeFilter,
  revoked: revokedFilterSchema,
  o: z.enum(verificationSorts).catch('-created').default('-created'),
  pageNumber: z.coerce.number().int().min(1).catch(1).default(1),
  pageSize: z.coerce
    .number()
    .int()
    .min(1)
    .max(VERIFICATION_PAGE_SIZE_MAX)
    .catch(VERIFICATION_PAGE_SIZE_DEFAULT)
    .default(VERIFICATION_PAGE_SIZE_DEFAULT),
});
export type VerificationSearch = z.infer<typeof verificationSearchSchema>;

const accountParam = { account: z.coerce.number().int().positive() };

/** GET /api/verifications?account=…&…search params → VerificationList (canSearchData). */
export const verificationListQuerySchema = verificationSearchSchema.extend(accountParam);
export type VerificationListQuery = z.input<typeof verificationListQuerySchema>;

/** GET /api/verifications/export-csv?account=…&…filters and o → text/csv, every matching row (canSearchData). */
export const verificationExportQuerySchema = verificationSearchSchema
  .omit({ pageNumber: true, pageSize: true })
  .extend(accountParam);
export type VerificationExportQuery = z.input<typeof verificationExportQuerySchema>;

/** GET /api/verifications/{id}?account=…: one verification with its evidence (canSearchData). */
export const verificationDetailQuerySchema = z.object(accountParam).partial();

/**
 * contracts/revocations.ts's channels. That file imports this one, so importing its values back would be a cycle; a
 * record over its type names each channel exactly once, so the two lists cannot drift apart.
 */
const revocationChannelSet: Record<RevocationChannel, true> = {
  sms_reply: true,
  public_page: true,
  api: true,
  member: true,
};
const revocationChannelValues = Object.keys(revocationChannelSet) as [
  RevocationChannel,
  ...RevocationChannel[],
];

/**
 * The revocation a verification's `revokedAt` names (issue #35): which one, how it came, when, and the number or
 * address it named (the verification's own: by these the revocations list finds it).
 */
export const verificationRevocationSchema = z.object({
  id: z.string(),
  channel: z.enum(revocationChannelValues),
  receivedAt: z.string(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
});
export type VerificationRevocation = z.infer<typeof verificationRevocationSchema>;
/** A reassigned-number answer in words (the detail, the certificate's page and PDF): no data is never a no. */
export const reassignmentAnswerLabels: Record<ReassignmentAnswer, string> = {
  yes: 'Reassigned since consent',
  no: 'Not reassigned since consent',
  no_data: 'No data available',
};

export const verificationDetailSchema = verificationSchema.extend({
  /** The address the code went to, when the method is e-mail. */
  email: z.string().nullable(),
  codeSentAt: z.string().nullable(),
  verifiedAt: z.string().nullable(),
  /** Codes entered, the right one included. */
  attempts: z.number().int(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  /** The consent version shown when the code was asked for (issue #18); null when the form had none. */
  consent: consentEvidenceSchema.nullable(),
  /**
   * When the consumer's personal data was redacted (issue #19): the number and address are then masked, IP and user
   * agent null. Null when it was not.
   */
  redactedAt: z.string().nullable(),
  /** The revocation `revocationId` names, with its channel; null when consent was not revoked since. */
  revocation: verificationRevocationSchema.nullable(),
  /**
   * What the carrier said of the number when the code was requested (issue #36 item 1): line type and name, and the
   * last SIM swap judged against the account's window then; null when not asked or the carrier told nothing. API v1's
   * objects, so both say the same.
   */
  carrier: apiCarrierSchema.nullable(),
  simSwap: apiSimSwapSchema.nullable(),
  /** The latest reassigned-number check of the number since this consent (issue #36 item 2); null when none was made. */
  reassignment: apiReassignmentSchema.nullable(),
  /**
   * The verification whose consent this one refreshes (issue #36 item 4): made through a fresh verification link of
   * that one, by its id here (null when it was not, or that verification is gone).
   */
  refreshes: z.number().int().nullable(),
  /**
   * The legal holds that reach it now (issue #37), oldest first: while any does, it is never purged nor redacted. Empty
   * when none.
   */
  heldBy: z.array(z.string()),
  /** The same holds with their scope and reason, for the detail's notice. */
  holds: z.array(
    z.object({ id: z.string(), scope: z.enum(legalHoldScopes), reason: z.string(), placedAt: z.string() }),
  ),
});
export type VerificationDetail = z.infer<typeof verificationDetailSchema>;

/**
 * The verification detail's timeline, oldest first. `attemptId`
 * names the code a line belongs to when the verification had several sends.
 */
export const timelineEventKinds = [
  'page_opened',
  'consent_shown',
  'code_requested',
  'code_sent',
  'code_delivered',
  'code_undelivered',
  'code_failed',
  'code_entered',
  'verified',
] as const;
export const timelineEventSchema = z.object({
  kind: z.enum(timelineEventKinds),
  at: z.string(),
  attemptId: z.string().nullable(),
  /** `code_entered`: whether the code was right. */
  correct: z.boolean().nullable(),
  /** Delivery lines: the provider's error code; consent_shown: null. */
  errorCode: z.string().nullable(),
  /** consent_shown: the version shown; code_sent: the provider's message id. A short fact for the line, or null. */
  detail: z.string().nullable(),
});
export type TimelineEvent = z.infer<typeof timelineEventSchema>;
export const verificationTimelineSchema = z.object({ events: z.array(timelineEventSchema) });
export type VerificationTimeline = z.infer<typeof verificationTimelineSchema>;

/** The dashboard's presets (SPEC §2 /dashboard/): last7d (default), last30d or custom. */
export const dashboardPresets = ['last7d', 'last30d', 'custom'] as const;
/** /dashboard/ search params: the log's filters without paging and sort. */
export const dashboardSearchSchema = verificationFilterSchema.extend({
  created__date__preset: z.enum(dashboardPresets).catch('last7d').default('last7d'),
});
export type DashboardSearch = z.infer<typeof dashboardSearchSchema>;

/** GET /api/verifications/report?account=…&…dashboard filters (canViewReports). */
export const verificationReportQuerySchema = dashboardSearchSchema.extend(accountParam);
export type VerificationReportQuery = z.input<typeof verificationReportQuerySchema>;

/**
 * The steps of the report's funnel (issue #18 item 7), counted over one cohort: the attempts (codes asked for) created
 * in the filtered range, each followed to where it got, whenever that happened. So a step never exceeds the one before
 * it, and each count is the number of rows of the attempts export (GET /api/verification-attempts/export-csv) for
 * the same filters:
 * - `codeRequested`: every attempt (the export's rows);
 * - `delivered`: SMS whose delivery status is `delivered`; e-mail that is `sent` or `delivered` (the SMTP server's
 *   acceptance is all e-mail ever tells us). Test numbers' attempts count when they record a simulated `delivered`.
 *   An SMS still waiting (or `unknown`, 10 minutes after `sent`) is not delivered;
 * - `codeEntered`: attempts with at least one code typed, right or wrong (a `code_entries` row; the export's
 *   "Codes entered" > 0);
 * - `verified`: attempts verified (the export's "Verified").
 */
export const funnelStepsSchema = z.object({
  codeRequested: z.number().int(),
  delivered: z.number().int(),
  codeEntered: z.number().int(),
  verified: z.number().int(),
});
export type FunnelSteps = z.infer<typeof funnelStepsSchema>;

/**
 * Why the page views cannot be counted for the filters: they know their form and time only, not the channel the
 * code would go by, nor the phone or reference a search names; and API v1 has no page.
 */
export const pageOpenedUnavailableReasons = ['channel', 'source', 'search'] as const;

/** One provider error among the range's undelivered or failed attempts. */
export const funnelFailureReasonSchema = z.object({
  /** Twilio's error code or the SMTP reply code; null when the provider gave none. */
  errorCode: z.string().nullable(),
  channel: verificationMethodSchema,
  count: z.number().int(),
  /** contracts/delivery-reasons.ts in words with the member's next step; null for a code we have no words for. */
  reason: z.object({ reason: z.string(), nextStep: z.string() }).nullable(),
});
export type FunnelFailureReason = z.infer<typeof funnelFailureReasonSchema>;

/** The dashboard's funnel: page opened → code requested → delivered → code entered → verified (see funnelStepsSchema). */
export const reportFunnelSchema = funnelStepsSchema.extend({
  /**
   * The forms' public pages opened in the range (every visit, not distinct people), for the filtered forms; null when
   * `pageOpenedUnavailable` says why they cannot be counted for these filters.
   */
  pageOpened: z.number().int().nullable(),
  pageOpenedUnavailable: z.enum(pageOpenedUnavailableReasons).nullable(),
  /** The same as `codeRequested`, under its earlier name (kept for callers of the first funnel). */
  codesSent: z.number().int(),
  /** verified ÷ codeRequested; null when no code was asked for. */
  conversionRate: z.number().nullable(),
  /** The steps per channel: always SMS then e-mail, zeros included. */
  byChannel: z.array(funnelStepsSchema.extend({ channel: verificationMethodSchema })),
  /** The steps per form: the 10 with the most codes requested (ties: the lower id); its page views beside. */
  byForm: z.array(
    funnelStepsSchema.extend({
      verifyFormId: z.number().int(),
      verifyFormName: z.string(),
      pageOpened: z.number().int().nullable(),
    }),
  ),
  /** The 5 most frequent (error code, channel) pairs among undelivered and failed attempts; ties by code. */
  topFailureReasons: z.array(funnelFailureReasonSchema),
});
export type ReportFunnel = z.infer<typeof reportFunnelSchema>;

/** The report (DESIGN §5): totals by method, a per-day series in `tz`, top forms and categories, and the funnel. */
export const verificationReportSchema = z.object({
  /** The local days covered, as resolved in `tz` (inclusive). */
  range: z.object({ gte: z.string().nullable(), lte: z.string().nullable(), tz: z.string() }),
  totals: z.object({ verifications: z.number().int(), sms: z.number().int(), email: z.number().int() }),
  /** Every day of the range, zeros included, oldest first. */
  perDay: z.array(z.object({ date: z.string(), sms: z.number().int(), email: z.number().int() })),
  /** Top 10 by verifications. */
  byForm: z.array(
    z.object({ verifyFormId: z.number().int(), verifyFormName: z.string(), verifications: z.number().int() }),
  ),
  byCategory: z.array(z.object({ category: z.string(), verifications: z.number().int() })),
  funnel: reportFunnelSchema,
});
export type VerificationReport = z.infer<typeof verificationReportSchema>;

/** Texts of the verifications area that the spec gives or that the UI and tests share. */
export const verificationTexts = {
  noMembership: 'No membership found',
} as const;

/** POST /api/verifications/{id}/redact: nothing to choose, so no body, or `{}` (absent is null to the validator). */
export const redactVerificationRequestSchema = z.object({}).strict().nullish();

/** The account's verifications, named by `?account=`, where the caller needs `can`. */
export const ofQueryAccount = (can: Capability) => ({ account: { from: 'query.account', can } }) as const;

/**
 * One verification's routes (its certificate's too): 404 for a malformed, unknown or other account's id, then 403
 * without `can`. The page's `account` is the account being looked at: a verification of another of the caller's
 * accounts is not found under it (the link would show one company's data inside another's pages).
 */
/** POST /api/verifications/{id}/refresh: nothing to choose, the web app sends `{}`. */
export const refreshVerificationRequestSchema = z.object({});

/** POST /api/verifications/{id}/reassignment-checks: nothing to say, the web app sends `{}`. */
export const reassignmentCheckRequestSchema = z.object({});

export const onVerification = (can: Capability) =>
  ({ account: { from: { pathObject: 'verifications' }, can, alsoNamedBy: 'query.account' } }) as const;

/**
 * The session API's verification routes (SPEC §2 /activity-log/, /dashboard/, §7): owners, or members with
 * canSearchData (the report: canViewReports). Static `report` and `export-csv` win over `:id` in the server's router.
 */
export const verificationEndpoints = {
  /** The activity log: the account's verifications as its search params filter, sort and page them. */
  list: endpoint('GET /api/verifications', {
    query: verificationListQuerySchema,
    response: ok(verificationListSchema),
    access: ofQueryAccount('searchData'),
  }),
  /** Every matching row in the chosen sort as a CSV download (issue #6): the log's filters and `o`, no paging. */
  exportCsv: endpoint('GET /api/verifications/export-csv', {
    query: verificationExportQuerySchema,
    response: ok(),
    access: ofQueryAccount('searchData'),
    stepUp: true,
  }),
  /** The dashboard's report for its filters. */
  report: endpoint('GET /api/verifications/report', {
    query: verificationReportQuerySchema,
    response: ok(verificationReportSchema),
    access: ofQueryAccount('viewReports'),
  }),
  /** One verification with its evidence. */
  get: endpoint('GET /api/verifications/:id', {
    params: anyIdParams,
    query: verificationDetailQuerySchema,
    response: ok(verificationDetailSchema),
    access: onVerification('searchData'),
  }),
  /** What happened from the page's opening to the verification (issue #18 item 6). */
  timeline: endpoint('GET /api/verifications/:id/timeline', {
    // The tenancy hook has answered 404 for anything but an id of the account: the path parses as a big id here.
    params: bigIdParamsSchema,
    query: verificationDetailQuerySchema,
    response: ok(verificationTimelineSchema),
    access: onVerification('searchData'),
  }),
  /** Its reassigned-number checks, newest first (issue #36 item 2): API v1's list, the verification's approved code's. */
  reassignmentChecks: endpoint('GET /api/verifications/:id/reassignment-checks', {
    params: anyIdParams,
    query: verificationDetailQuerySchema,
    response: ok(apiReassignmentCheckListSchema),
    access: onVerification('searchData'),
  }),
  /**
   * Asks now whether the number was reassigned since this consent (the "Check for reassignment" button): 201 with the
   * check (the day's same question answers the same check); 400 with the reason in `nonFieldErrors` when it cannot be
   * checked (API v1's 422 `reassignment_check_not_possible`), 429 past the month's ceiling, 503 when the provider did
   * not answer (retry).
   */
  checkReassignment: endpoint('POST /api/verifications/:id/reassignment-checks', {
    params: anyIdParams,
    query: verificationDetailQuerySchema,
    body: reassignmentCheckRequestSchema,
    response: created(apiReassignmentCheckSchema),
    access: onVerification('searchData'),
  }),
  /**
   * A fresh verification link bound to it (issue #36 item 4, ADR 44): 201 with API v1's RefreshLink; 400 with the
   * reason in `nonFieldErrors` when it was not approved or was redacted (API v1's 422 `refresh_not_possible`) or its
   * form is inactive. Those who read the verification (canSearchData): the link carries its reference.
   */
  refresh: endpoint('POST /api/verifications/:id/refresh', {
    params: anyIdParams,
    query: verificationDetailQuerySchema,
    body: refreshVerificationRequestSchema,
    response: created(apiRefreshLinkSchema),
    access: onVerification('searchData'),
  }),
  /** An owner removes a consumer's personal data from it, once (issue #19, ADR 25): the detail as it now reads. */
  redact: endpoint('POST /api/verifications/:id/redact', {
    params: anyIdParams,
    query: verificationDetailQuerySchema,
    body: redactVerificationRequestSchema,
    response: ok(verificationDetailSchema),
    access: onVerification('manageEvidence'),
    stepUp: true,
  }),
};
