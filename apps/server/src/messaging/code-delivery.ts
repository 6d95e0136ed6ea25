import type { z } from 'zod';
import { sendVerificationCode } from '../jobs/definitions/send-verification-code.ts';
import type { EnqueueOptions, JobQueue } from '../jobs/queue.ts';
import type { Sealer } from '../lib/sealed.ts';

/**
 * Sending verification codes (issue #5 item 6): the public-verify service hands over an attempt and its plain code
 * with storing the attempt; delivery happens in a durable job (jobs/definitions/send-verification-code.ts) that
 * composes the message in the form's language and sends it by SMS (Twilio, or the dev outbox) or e-mail (the
 * mailer). The plain code never rests in the database unencrypted: it travels sealed with SECRET_KEY inside the job.
 */
export type CodeMessage = { attemptId: string; code: string };

export type CodeDelivery = {
  /**
   * Durably queues the message; resolves once the job is stored (not when the message has left). With `tx`, the job
   * is stored by the attempt's own transaction: committed with it, or not at all.
   */
  enqueue(message: CodeMessage, options?: EnqueueOptions): Promise<void>;
  /** The job's name and data (the code sealed), for SQL that stores the job itself (migration 0022). */
  job(message: CodeMessage): { name: string; data: z.output<typeof sendVerificationCode.payload> };
};

/** The code is sealed under the attempt id, so a sealed code cannot be replayed for another attempt. */
export function createCodeDelivery(deps: { jobs: JobQueue; sealer: Sealer }): CodeDelivery {
  return {
    job({ attemptId, code }) {
      const data = sendVerificationCode.payload.parse({
        attemptId,
        sealedCode: deps.sealer.seal(code, attemptId),
      });
      return { name: sendVerificationCode.name, data };
    },
    async enqueue({ attemptId, code }, options) {
      const sealedCode = deps.sealer.seal(code, attemptId);
      await deps.jobs.enqueue(sendVerificationCode, { attemptId, sealedCode }, options);
    },
  };
}
