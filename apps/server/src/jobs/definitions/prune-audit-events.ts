import { z } from 'zod';
import { defineJob } from '../define.ts';

/** Daily at 03:47 UTC: audit events past their account's retention go, and an `audit.pruned` event says so. */
export const pruneAuditEvents = defineJob({
  name: 'prune-audit-events',
  payload: z.object({}),
  schedule: { cron: '47 3 * * *' },
  queue: { policy: 'standard', retryLimit: 2, retryDelay: 300, expireInSeconds: 1800, retentionMinutes: 60 },
});
