import { z } from 'zod';
import { SealedValueError } from '../../lib/sealed.ts';
import { sendVerificationCode as send } from '../../messaging/code-sender.ts';
import { defineJob } from '../define.ts';

/**
 * Sends one verification code (public verification; `codeDelivery.enqueue`). Retries: a provider hiccup (HTTP 5xx,
 * 429, a timeout, SMTP 4xx) is retried after 1–2, 2–4, 4–8 … 128–256 s (pg-boss's exponential backoff with jitter),
 * 4¼ to 8½ minutes in all — the code is valid for 10. A job not started within 15 minutes is dropped (its code has
 * expired anyway). Permanent refusals are not retried (see code-sender.ts).
 */
export const sendVerificationCode = defineJob({
  name: 'send-verification-code',
  /** Never the plain code, which is sealed with SECRET_KEY and bound to the attempt id. */
  payload: z.object({
    attemptId: z.string().min(1),
    sealedCode: z.string().min(1),
  }),
  queue: {
    policy: 'standard',
    retryLimit: 8,
    retryDelay: 1,
    retryBackoff: true,
    // One send (Twilio's client gives up after 15 s); past this pg-boss fails the job and it is retried.
    expireInSeconds: 60,
    retentionMinutes: 15,
  },
  // A consumer is waiting for this message: another process picks up a code this one could not within half a
  // second (pg-boss's lower bound).
  worker: { batchSize: 4, pollingIntervalSeconds: 0.5 },
  async handler({ attemptId, sealedCode }, { services, log }) {
    let code: string;
    try {
      code = services.sealer.open(sealedCode, attemptId);
    } catch (error) {
      // SECRET_KEY changed since the job was queued: no retry can open it; the consumer can ask for a new code.
      if (!(error instanceof SealedValueError)) throw error;
      log.error({ attemptId }, 'send-verification-code: cannot open the sealed code; dropped');
      return { outcome: 'unreadable' };
    }
    return { outcome: await send({ ...services, log }, { attemptId, code }) };
  },
});
