import { z } from 'zod';
import { pruneIdempotencyKeys as prune } from '../../modules/api-v1/idempotency-store.ts';
import { defineJob } from '../define.ts';

/** Hourly: API v1 Idempotency-Keys past their 24 hours (reads ignore them already) are deleted. */
export const pruneIdempotencyKeys = defineJob({
  name: 'prune-idempotency-keys',
  payload: z.object({}),
  schedule: { cron: '37 * * * *' },
  queue: { policy: 'standard', retryLimit: 2, retryDelay: 60, expireInSeconds: 300, retentionMinutes: 60 },
  async handler(_payload, { services }) {
    return { outcome: 'pruned', deleted: await prune(services.db, services.clock) };
  },
});
