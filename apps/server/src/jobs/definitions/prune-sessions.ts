import { z } from 'zod';
import { defineJob } from '../define.ts';

/**
 * Hourly: sessions past their expiry (they already count as logged out) are deleted, and so is sign-in ceremonies'
 * state past its own (auth_challenges: WebAuthn challenges, pending second steps, SSO states).
 */
export const pruneSessions = defineJob({
  name: 'prune-sessions',
  payload: z.object({}),
  schedule: { cron: '7 * * * *' },
  queue: { policy: 'standard', retryLimit: 2, retryDelay: 60, expireInSeconds: 300, retentionMinutes: 60 },
});
