import { z } from 'zod';

/**
 * Who created an API key or a webhook endpoint (issue #33 item 2, ADR 30): the lists show it. Null when unknown (an
 * endpoint made before this was recorded, or a person since deleted).
 */
export const createdBySchema = z
  .object({ id: z.number().int(), name: z.string(), email: z.string() })
  .nullable();
export type CreatedBy = z.infer<typeof createdBySchema>;
