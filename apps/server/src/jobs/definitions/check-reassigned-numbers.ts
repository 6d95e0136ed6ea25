import { z } from 'zod';
import { defineJob } from '../define.ts';

/**
 * Daily (05:17 UTC): for every account with reassigned-number checks on, the numbers with live consent whose latest
 * check is due are checked (modules/contactability/reassignment-sweep.ts, issue #36 item 2, ADR 43). One runs at a
 * time (`singleton`: a second tick waits for the first, then finds nothing due); a run cut off is made good by running
 * again: what was checked is not due, and what was answered within the day is answered from its record.
 */
export const checkReassignedNumbers = defineJob({
  name: 'check-reassigned-numbers',
  payload: z.object({}),
  schedule: { cron: '17 5 * * *' },
  queue: {
    policy: 'singleton',
    retryLimit: 2,
    retryDelay: 600,
    retryBackoff: true,
    // 100k numbers at the sweep's pace (config reassignmentSweepChecksPerSecond, 5 a second) take about 5.6 hours; a
    // run past eight is retried by the next try, which finds what it checked no longer due.
    expireInSeconds: 8 * 60 * 60,
    retentionMinutes: 24 * 60,
  },
});
