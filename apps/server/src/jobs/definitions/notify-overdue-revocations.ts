import { z } from 'zod';
import { defineJob } from '../define.ts';

/**
 * Every 15 minutes: the open revocations past their deadline not yet notified get `revocation.overdue` and their
 * account's owners one e-mail (modules/revocations/overdue.ts). A run that fails is made good by the next one.
 */
export const notifyOverdueRevocations = defineJob({
  name: 'notify-overdue-revocations',
  payload: z.object({}),
  schedule: { cron: '*/15 * * * *' },
  queue: {
    policy: 'standard',
    retryLimit: 1,
    retryDelay: 30,
    expireInSeconds: 300,
    retentionMinutes: 24 * 60,
  },
});
