import type { Background } from '../lib/background.ts';
import { type CodeSenderDeps, sendVerificationCode } from './code-sender.ts';

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

/**
 * First cut (until the pg-boss queue lands): sends right away, in-process, after the answer (`services.background`).
 * Not durable: a crash between the answer and the send loses the message (the consumer can ask again).
 */
export function createCodeDelivery(deps: CodeSenderDeps & { background: Background }): CodeDelivery {
  return {
    async enqueue(message) {
      deps.background.run('verification code send', async () => {
        await sendVerificationCode(deps, message);
      });
    },
  };
}
