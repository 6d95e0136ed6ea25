import { z } from 'zod';
import { consentEvidenceSchema } from './consent.ts';
import { csvList, datePresets, localDateSchema, timeZoneSchema } from './date-filters.ts';
import { listResponseSchema } from './lists.ts';
import { verificationMethodSchema, verificationMethods } from './public-verify.ts';
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
});
export type Verification = z.infer<typeof verificationSchema>;
export const verificationListSchema = listResponseSchema(verificationSchema);
export type VerificationList = z.infer<typeof verificationListSchema>;

/** GET /api/verify-forms/{id}/stats: the form page's counts. */
export const verifyFormStatsSchema = z.object({
  verifications: z.number().int(),
  verificationsLast30Days: z.number().int(),
  codesSentLast30Days: z.number().int(),
  lastVerifiedAt: z.string().nullable(),
});
export type VerifyFormStats = z.infer<typeof verifyFormStatsSchema>;

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

/** /activity-log/ and /activity-log/{id} search params (SPEC §2). */
export const verificationSearchSchema = verificationFilterSchema.extend({
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
});
export type VerificationDetail = z.infer<typeof verificationDetailSchema>;

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
  /** Codes sent (attempts) → verified, same filters; conversionRate null when no code was sent. */
  funnel: z.object({
    codesSent: z.number().int(),
    verified: z.number().int(),
    conversionRate: z.number().nullable(),
  }),
});
export type VerificationReport = z.infer<typeof verificationReportSchema>;

/** Texts of the verifications area that the spec gives or that the UI and tests share. */
export const verificationTexts = {
  noMembership: 'No membership found',
} as const;
