import { z } from 'zod';
import { csvList } from './date-filters.ts';
import { listResponseSchema } from './lists.ts';
import { verificationMethodSchema } from './public-verify.ts';

// The form page's recent verifications use GET /api/verifications?account=…&verifyFormId__in=…; the activity log
// issue (#6) completes the query set of SPEC §2 (filters, presets, sort, search) on this same schema.

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

export const verificationListQuerySchema = z.object({
  account: z.coerce.number().int().positive(),
  verifyFormId__in: csvList(z.coerce.number().int().positive()).optional().catch(undefined),
  pageNumber: z.coerce.number().int().min(1).catch(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).catch(10).default(10),
});
export type VerificationListQuery = z.input<typeof verificationListQuerySchema>;
