import { z } from 'zod';
import { defineJob } from '../define.ts';

/** When the daily purge runs (UTC): a quiet hour, apart from the other daily jobs (03:47, 05:17). */
export const PURGE_AT_UTC = { hour: 4, minute: 23 } as const;

/**
 * Daily at 04:23 UTC: every account's evidence older than its retention policy is removed in batches, leaving tombstones
 * (modules/retention/purge.ts, issue #37, ADR 45). One runs at a time (`singleton`); a run cut off is made good by the
 * next, which finds what is still due.
 */
export const purgeExpiredEvidence = defineJob({
  name: 'purge-expired-evidence',
  payload: z.object({}),
  schedule: { cron: `${PURGE_AT_UTC.minute} ${PURGE_AT_UTC.hour} * * *` },
  queue: {
    policy: 'singleton',
    retryLimit: 2,
    retryDelay: 600,
    retryBackoff: true,
    expireInSeconds: 4 * 60 * 60,
    retentionMinutes: 24 * 60,
  },
});
