import { z } from 'zod';
import { csvList } from './date-filters.ts';
import { apiDeliveryStatusSchema } from './delivery-status.ts';
import { endpoint, ok } from './endpoints.ts';
import { listResponseSchema } from './lists.ts';
import { verificationMethodSchema } from './public-verify.ts';
import {
  modeFilter,
  ofQueryAccount,
  verificationFilterSchema,
  verificationSourceSchema,
} from './verifications.ts';

// Issue #18 items 5-6: every code send ("attempt"), verified or not, with what happened to its message (the
// verification detail's timeline is in verifications.ts, what the public page tells the consumer meanwhile in
// public-verify.ts).

/** What is stored (queued → sent → delivered | undelivered | failed) plus `unknown`, derived when read (api-v1.ts). */
export const deliveryStatusSchema = apiDeliveryStatusSchema;
export type DeliveryStatus = z.infer<typeof deliveryStatusSchema>;

/** The reason of a failed delivery in words and the member's next step (contracts/delivery-reasons.ts). */
export const deliveryReasonSchema = z.object({ reason: z.string(), nextStep: z.string() });

/** One line of a message's delivery history, as the provider reported it. */
export const deliveryHistoryEventSchema = z.object({
  status: z.enum(['queued', 'sent', 'delivered', 'undelivered', 'failed']),
  at: z.string(),
  errorCode: z.string().nullable(),
});
export type DeliveryHistoryEvent = z.infer<typeof deliveryHistoryEventSchema>;

/** An attempt as the activity log's attempts view lists it. */
export const verificationAttemptSchema = z.object({
  /** The attempt's public id (128 random bits). */
  id: z.string(),
  created: z.string(),
  /** E.164. */
  cellPhone: z.string(),
  email: z.string().nullable(),
  externalRefId: z.string(),
  verifyFormId: z.number().int(),
  verifyFormName: z.string(),
  channel: verificationMethodSchema,
  source: verificationSourceSchema,
  isTest: z.boolean(),
  /** pending | verified | locked (5 wrong codes) | replaced (a newer code) | canceled | expired (derived). */
  status: z.enum(['pending', 'verified', 'locked', 'replaced', 'canceled', 'expired']),
  deliveryStatus: deliveryStatusSchema,
  deliveryErrorCode: z.string().nullable(),
  deliveryReason: deliveryReasonSchema.nullable(),
  providerMessageId: z.string().nullable(),
  /** The delivery history, oldest first. */
  events: z.array(deliveryHistoryEventSchema),
  /** Codes typed for this attempt, the right one included. */
  codesEntered: z.number().int(),
  verified: z.boolean(),
  verificationId: z.number().int().nullable(),
});
export type VerificationAttempt = z.infer<typeof verificationAttemptSchema>;
export const verificationAttemptListSchema = listResponseSchema(verificationAttemptSchema);
export type VerificationAttemptList = z.infer<typeof verificationAttemptListSchema>;

/**
 * Delivery statuses a list can be filtered by: comma-separated or repeated keys, junk items dropped, as the log's other
 * lists (csvList); none left means every status.
 */
export const deliveryStatusFilterSchema = csvList(deliveryStatusSchema).optional().catch(undefined);

export const ATTEMPT_PAGE_SIZE_DEFAULT = 25;
export const ATTEMPT_PAGE_SIZE_MAX = 100;

/**
 * /activity-log/attempts search params: the log's filters (form, category, channel, source, dates, q) plus the
 * delivery status; newest first. Every bad value falls back, as on the log.
 */
export const verificationAttemptSearchSchema = verificationFilterSchema.extend({
  ...modeFilter,
  deliveryStatus: deliveryStatusFilterSchema,
  pageNumber: z.coerce.number().int().min(1).catch(1).default(1),
  pageSize: z.coerce
    .number()
    .int()
    .min(1)
    .max(ATTEMPT_PAGE_SIZE_MAX)
    .catch(ATTEMPT_PAGE_SIZE_DEFAULT)
    .default(ATTEMPT_PAGE_SIZE_DEFAULT),
});
export type VerificationAttemptSearch = z.infer<typeof verificationAttemptSearchSchema>;

const accountParam = { account: z.coerce.number().int().positive() };

/** GET /api/verification-attempts?account=…&…search params → VerificationAttemptList (canSearchData). */
export const verificationAttemptListQuerySchema = verificationAttemptSearchSchema.extend(accountParam);
export type VerificationAttemptListQuery = z.input<typeof verificationAttemptListQuerySchema>;

/** GET /api/verification-attempts/export-csv?account=…&…filters → text/csv, every matching attempt (canSearchData). */
export const verificationAttemptExportQuerySchema = verificationAttemptSearchSchema
  .omit({ pageNumber: true, pageSize: true })
  .extend(accountParam);
export type VerificationAttemptExportQuery = z.input<typeof verificationAttemptExportQuerySchema>;

/**
 * The activity log's attempts view (issue #18 item 6): same right and scoping as the log (owners, or members with
 * canSearchData); an account the caller is not a member of answers 404.
 */
export const verificationAttemptEndpoints = {
  /** Every code sent, with its delivery, as the view's search params filter and page them. */
  list: endpoint('GET /api/verification-attempts', {
    query: verificationAttemptListQuerySchema,
    response: ok(verificationAttemptListSchema),
    access: ofQueryAccount('searchData'),
  }),
  /** Every matching attempt, newest first, as a CSV download. */
  exportCsv: endpoint('GET /api/verification-attempts/export-csv', {
    query: verificationAttemptExportQuerySchema,
    response: ok(),
    access: ofQueryAccount('searchData'),
    stepUp: true,
  }),
};
