import { z } from 'zod';
import { defineJob } from '../define.ts';

/**
 * Daily at 05:07 UTC: data-subject requests filed more than 24 months ago go (CCPA, 11 CCR §7101(a): the log of
 * requests is kept 24 months; issue #37). The restrictions they made stay with the evidence.
 */
export const prunePrivacyRequests = defineJob({
  name: 'prune-privacy-requests',
  payload: z.object({}),
  schedule: { cron: '7 5 * * *' },
  queue: { policy: 'standard', retryLimit: 2, retryDelay: 300, expireInSeconds: 1800, retentionMinutes: 60 },
});
