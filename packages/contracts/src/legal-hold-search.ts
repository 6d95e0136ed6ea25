import { z } from 'zod';

/**
 * Legal holds' words the app shell needs (issue #37 item 2): the scopes (a verification's detail names a hold's), the
 * statuses and Settings › Legal holds' search params. The rest of the contract is `legal-holds.ts`, which only the
 * page's own chunk loads.
 */

export const legalHoldScopes = ['account', 'form', 'identifier', 'verification'] as const;
export type LegalHoldScope = (typeof legalHoldScopes)[number];

export const legalHoldStatuses = ['active', 'released'] as const;
export type LegalHoldStatus = (typeof legalHoldStatuses)[number];

export const LEGAL_HOLD_PAGE_SIZE_DEFAULT = 25;
export const LEGAL_HOLD_PAGE_SIZE_MAX = 100;

/** Settings › Legal holds search params (a bad value falls back): the status, the page. */
export const legalHoldSearchSchema = z.object({
  status: z.enum(legalHoldStatuses).optional().catch(undefined),
  pageNumber: z.coerce.number().int().min(1).catch(1).default(1),
  pageSize: z.coerce
    .number()
    .int()
    .min(1)
    .max(LEGAL_HOLD_PAGE_SIZE_MAX)
    .catch(LEGAL_HOLD_PAGE_SIZE_DEFAULT)
    .default(LEGAL_HOLD_PAGE_SIZE_DEFAULT),
});
export type LegalHoldSearch = z.infer<typeof legalHoldSearchSchema>;
