import { z } from 'zod';
import { defineJob, emailQueue } from '../define.ts';

/** What a verify-email job's address is sealed to: this kind of job, and nothing else. */
export const verifyEmailAddressSeal = 'send-verify-email:address';

/**
 * The e-mail with the link that verifies an address (modules/auth/email-verification.ts): enqueued by the sign-up's
 * own transaction, and by "resend the verification e-mail" for whatever address was typed, known or not, so that
 * answer does the same work either way. The handler sends a link minted then, and only to an unverified user's
 * address. Retried for about three to six hours; dropped when not started within a day.
 */
export const sendVerifyEmail = defineJob({
  name: 'send-verify-email',
  /** The address only sealed: typed by anyone, it need not be anyone's. */
  payload: z.object({ sealedEmail: z.string().min(1) }),
  queue: emailQueue({ retryLimit: 10, retentionMinutes: 24 * 60 }),
});
