import { z } from 'zod';
import { defineJob } from '../define.ts';

/**
 * A data-subject request carried out (issue #37 item 3; modules/privacy-requests): enqueued in the transaction that
 * moves it from `open` to `running`, so many clicks at once make one job. Access gathers the bundle's ids, erasure
 * redacts every matching verification not under a legal hold (restricting the held ones), restriction restricts them
 * all; then the request is answered and its identifiers masked. A retry is safe: redacted evidence no longer matches
 * and restrictions are written once. Erasure of many verifications takes time: an hour before it is retried.
 */
export const carryOutPrivacyRequest = defineJob({
  name: 'carry-out-privacy-request',
  payload: z.object({ privacyRequestId: z.string().min(1).max(64) }),
  queue: {
    policy: 'standard',
    retryLimit: 3,
    retryDelay: 60,
    retryBackoff: true,
    expireInSeconds: 3600,
    retentionMinutes: 1440,
  },
});
