import { z } from 'zod';
import { defineJob } from '../define.ts';

/** Hourly: API v1 Idempotency-Keys past their 24 hours (reads ignore them already) are deleted. */
export const pruneIdempotencyKeys = defineJob({
  name: 'prune-idempotency-keys',
  payload: z.object({}),
  schedule: { cron: '37 * * * *' },
  queue: { policy: 'standard', retryLimit: 2, retryDelay: 60, expireInSeconds: 300, retentionMinutes: 60 },
});
