import { z } from 'zod';
import { defineJob } from '../define.ts';

/**
 * The one confirmation text of a revocation made on the public revocation page (issue #35;
 * modules/revocations/confirmation.ts), enqueued in the revocation's own transaction when the consumer asks for it.
 * FCC 24-24 allows it within five minutes of the revocation: a hiccup at Twilio is retried after 5–10, 10–20, 20–40 s,
 * and a job not started within five minutes is dropped (the handler refuses a late one too).
 */
export const sendRevocationConfirmation = defineJob({
  name: 'send-revocation-confirmation',
  /** The form's language: the text speaks the page's. */
  payload: z.object({
    revocationId: z.string().min(1),
    language: z.enum(['en', 'es']),
  }),
  queue: {
    policy: 'standard',
    retryLimit: 3,
    retryDelay: 5,
    retryBackoff: true,
    expireInSeconds: 60,
    retentionMinutes: 5,
  },
});
