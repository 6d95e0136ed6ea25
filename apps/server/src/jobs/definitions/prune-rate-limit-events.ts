import { z } from 'zod';
import { defineJob } from '../define.ts';

/** Hourly: rate-limit events older than any window counted over (RATE_LIMIT_RETENTION_MS) are deleted. */
export const pruneRateLimitEvents = defineJob({
  name: 'prune-rate-limit-events',
  payload: z.object({}),
  schedule: { cron: '17 * * * *' },
  queue: { policy: 'standard', retryLimit: 2, retryDelay: 60, expireInSeconds: 300, retentionMinutes: 60 },
});
