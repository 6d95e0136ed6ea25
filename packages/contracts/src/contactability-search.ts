import { z } from 'zod';

/**
 * Activity Log › Contactability's search params (issue #35), apart from the verdict's schemas: the app's route reads
 * them in its entry chunk, which the verdict's documented schemas (contactability.ts) would weigh down.
 */

export const CONTACTABILITY_PAGE_SIZE_DEFAULT = 25;
export const CONTACTABILITY_PAGE_SIZE_MAX = 100;

/** `allowed`: a boolean in the app's URL (the router reads JSON), `true`/`false` in the API's query string. */
const verdictFilter = z
  .union([z.boolean(), z.enum(['true', 'false']).transform((value) => value === 'true')])
  .optional()
  .catch(undefined);

/**
 * /activity-log/contactability search params (every bad value falls back): a number (any of its digits, as typed),
 * the verdict (allowed or not), the page.
 */
export const contactabilitySearchSchema = z.object({
  phone: z.string().trim().max(32).optional().catch(undefined),
  allowed: verdictFilter,
  pageNumber: z.coerce.number().int().min(1).catch(1).default(1),
  pageSize: z.coerce
    .number()
    .int()
    .min(1)
    .max(CONTACTABILITY_PAGE_SIZE_MAX)
    .catch(CONTACTABILITY_PAGE_SIZE_DEFAULT)
    .default(CONTACTABILITY_PAGE_SIZE_DEFAULT),
});
export type ContactabilitySearch = z.infer<typeof contactabilitySearchSchema>;
