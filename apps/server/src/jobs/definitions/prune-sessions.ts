import { z } from 'zod';
import { defineJob } from '../define.ts';

/** Hourly: sessions past their expiry (they already count as logged out) are deleted. */
export const pruneSessions = defineJob({
  name: 'prune-sessions',
  payload: z.object({}),
  schedule: { cron: '7 * * * *' },
  queue: { policy: 'standard', retryLimit: 2, retryDelay: 60, expireInSeconds: 300, retentionMinutes: 60 },
});
