import { z } from 'zod';
import { defineJob, emailQueue } from '../define.ts';

/** What a reset-password job's address is sealed to: this kind of job, and nothing else. */
export const resetPasswordAddressSeal = 'send-reset-password-email:address';

/**
 * The forgotten-password e-mail (modules/auth/password-reset.ts): enqueued for whatever address was typed, known or
 * not, so the answer does the same work either way; the handler sends a link minted then, and only to a user's
 * address. The link is valid for an hour: five retries (10 s to about 5 min apart) and a job not started within the
 * hour is dropped, so no link arrives long after it was asked for.
 */
export const sendResetPasswordEmail = defineJob({
  name: 'send-reset-password-email',
  /** The address only sealed: typed by anyone, it need not be anyone's. */
  payload: z.object({ sealedEmail: z.string().min(1) }),
  queue: emailQueue({ retryLimit: 5, retentionMinutes: 60 }),
});
