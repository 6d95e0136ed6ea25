import type PgBoss from 'pg-boss';
import { z } from 'zod';
import { SealedValueError, type Sealer } from '../lib/sealed.ts';
import { type CodeSenderDeps, sendVerificationCode } from '../messaging/code-sender.ts';
import type { QueueDefinition } from './boss.ts';

/**
 * The queue of verification codes to send. Retries: a provider hiccup (HTTP 5xx, 429, a timeout, SMTP 4xx) is retried
 * after 1–2, 2–4, 4–8 … 128–256 s
 * (pg-boss's exponential backoff with jitter), 4¼ to 8½ minutes in all — the code is valid for 10. A job
 * not started within 15 minutes is dropped (its code has expired anyway). Permanent refusals are not retried (see
 * code-sender.ts).
 */
export const sendVerificationCodeQueue = {
  name: 'send-verification-code',
  policy: 'standard',
  retryLimit: 8,
  retryDelay: 1,
  retryBackoff: true,
  // One send (Twilio's client gives up after 15 s); past this pg-boss fails the job and it is retried.
  expireInSeconds: 60,
  retentionMinutes: 15,
} satisfies QueueDefinition;

/** The job's data: never the plain code, which is sealed with SECRET_KEY and bound to the attempt id. */
export const sendVerificationCodeData = z.object({
  attemptId: z.string().min(1),
  sealedCode: z.string().min(1),
});
export type SendVerificationCodeData = z.infer<typeof sendVerificationCodeData>;

export type SendVerificationCodeDeps = CodeSenderDeps & { sealer: Sealer };

/** One job: answers its outcome (stored as the job's output), or throws to fail it, which pg-boss then retries. */
export function sendVerificationCodeHandler(deps: SendVerificationCodeDeps) {
  return async (job: PgBoss.Job<unknown>): Promise<{ outcome: string }> => {
    // Every line this job writes, the code sender's included, names the job (the job's own "request id").
    const log = deps.log.child({ jobId: job.id, queue: sendVerificationCodeQueue.name });
    const data = sendVerificationCodeData.safeParse(job.data);
    if (!data.success) {
      log.error('send-verification-code: malformed job data; dropped');
      return { outcome: 'malformed' };
    }
    const { attemptId, sealedCode } = data.data;
    let code: string;
    try {
      code = deps.sealer.open(sealedCode, attemptId);
    } catch (error) {
      // SECRET_KEY changed since the job was queued: no retry can open it; the consumer can ask for a new code.
      if (!(error instanceof SealedValueError)) throw error;
      log.error({ attemptId }, 'send-verification-code: cannot open the sealed code; dropped');
      return { outcome: 'unreadable' };
    }
    return { outcome: await sendVerificationCode({ ...deps, log }, { attemptId, code }) };
  };
}
