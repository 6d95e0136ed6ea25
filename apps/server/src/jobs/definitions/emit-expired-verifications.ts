import { z } from 'zod';
import { defineJob } from '../define.ts';

/** Every minute: `verification.expired` for the codes whose time ran out since (modules/verifications/expired-events.ts). */
export const emitExpiredVerifications = defineJob({
  name: 'emit-expired-verifications',
  payload: z.object({}),
  schedule: { cron: '* * * * *' },
  // Short expiry and retention: a run that fails or is lost is made good by the next minute's.
  queue: { policy: 'standard', retryLimit: 1, retryDelay: 10, expireInSeconds: 120, retentionMinutes: 60 },
});
