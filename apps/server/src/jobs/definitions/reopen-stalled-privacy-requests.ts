import { z } from 'zod';
import { defineJob } from '../define.ts';

/**
 * Hourly at :37: data-subject requests left `running` longer than their job (`carry-out-privacy-request`) can still be
 * tried, by its queue policy (`longestRunSeconds`), go back to `open`, audited as a failed carry-out with the reason
 * `expired` (issue #37; ADR 47's amendment). Its last try died without its handler's failure path: the process was
 * killed, or the try outlived its expiry. Reads only the requests' own rows, never pg-boss's.
 */
export const reopenStalledPrivacyRequests = defineJob({
  name: 'reopen-stalled-privacy-requests',
  payload: z.object({}),
  schedule: { cron: '37 * * * *' },
  queue: { policy: 'standard', retryLimit: 2, retryDelay: 300, expireInSeconds: 1800, retentionMinutes: 60 },
});
