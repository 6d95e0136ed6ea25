import type { Jobs } from '../jobs/queue.ts';
import type { Sealer } from '../lib/sealed.ts';

/**
 * Sending verification codes (issue #5 item 6): the public-verify service hands over an attempt and its plain code
 * right after storing the attempt; delivery happens in a durable job (pg-boss) that composes the message in the
 * form's language and sends it by SMS (Twilio, or the dev outbox) or e-mail (the mailer). The plain code never rests
 * in the database unencrypted: it travels sealed with SECRET_KEY inside the job's data.
 */
export type CodeMessage = { attemptId: string; code: string };

export type CodeDelivery = {
  /** Durably queues the message; resolves once the job is stored (not when the message has left). */
  enqueue(message: CodeMessage): Promise<void>;
};

/** The code is sealed under the attempt id, so a sealed code cannot be replayed for another attempt. */
export function createCodeDelivery(deps: {
  jobs: Pick<Jobs, 'sendVerificationCode'>;
  sealer: Sealer;
}): CodeDelivery {
  return {
    async enqueue({ attemptId, code }) {
      await deps.jobs.sendVerificationCode({ attemptId, sealedCode: deps.sealer.seal(code, attemptId) });
    },
  };
}
