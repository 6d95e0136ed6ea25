import { z } from 'zod';
import { defineJob } from '../define.ts';

/**
 * Daily at 04:52 UTC: webhook events past their 30 days go, with their deliveries and attempts. Readers already stop
 * at 30 days, so a day's delay costs only disk.
 */
export const pruneWebhookEvents = defineJob({
  name: 'prune-webhook-events',
  payload: z.object({}),
  schedule: { cron: '52 4 * * *' },
  queue: { policy: 'standard', retryLimit: 2, retryDelay: 300, expireInSeconds: 1800, retentionMinutes: 60 },
});
