import { z } from 'zod';
import { defineRowJob } from '../define.ts';

/**
 * Sends one verification code (public verification; modules/attempts/code-delivery.ts), claimed from the attempt's own row
 * (ADR 33): its `send_after` has come while its send is owed. Retries: a provider hiccup (HTTP 5xx, 429, a timeout,
 * SMTP 4xx) is retried after 1–2, 2–4, 4–8 … 128–256 s (exponential backoff with jitter), 4¼ to 8½ minutes in all —
 * the code is valid for 10; an attempt past its expiry is skipped, not sent. Permanent refusals are not retried (see
 * modules/attempts/send-code.ts).
 */
export const sendVerificationCode = defineRowJob({
  name: 'send-verification-code',
  /** Never the plain code, which is sealed with SECRET_KEY and bound to the attempt id. */
  payload: z.object({
    attemptId: z.string().min(1),
    sealedCode: z.string().min(1),
  }),
  retry: { limit: 8, delaySeconds: 1 },
  // One send (Twilio's client gives up after 15 s); past this the try is taken again by any process.
  leaseSeconds: 60,
  // A consumer is waiting for this message: another process picks up a code this one could not within half a
  // second.
  worker: { batchSize: 4, pollingIntervalSeconds: 0.5 },
});
