import { z } from 'zod';
import { defineJob } from '../define.ts';

/**
 * A data-subject request carried out (issue #37 item 3; modules/privacy-requests): enqueued in the transaction that
 * moves it from `open` to `running`, so many clicks at once make one job. Access gathers the bundle's ids, erasure
 * redacts every matching verification not under a legal hold (restricting the held ones), restriction restricts them
 * all; then the request is answered and its identifiers masked. A retry is safe: redacted evidence no longer matches
 * and restrictions are written once, and each verification erased is counted in the request's `erased_so_far` with
 * its redaction, so the answer after a retry counts every try's. Erasure of many verifications takes time: an hour
 * before it is retried. Its last try failing reopens the request (the handler); every try dying without that is caught
 * by `reopen-stalled-privacy-requests`, which reads its bound off this policy (`longestRunSeconds`).
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
