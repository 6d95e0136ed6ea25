import { z } from 'zod';
import { defineJob, emailQueue } from '../define.ts';

/** What a changed notice's addresses are sealed to: this kind of job and this user. */
export const emailChangedAddressesSeal = (userId: number) => `send-email-changed-notice:${userId}`;

/** The sealed value: the old address (the notice's recipient) and the new one. */
export const changedAddresses = z.object({ from: z.string(), to: z.string() });

/**
 * The notice to the OLD address that the login's address changed (modules/auth/email-change.ts: the confirmation's
 * own transaction). The old address is on no row any more (the request's row is reused by the next request), so the
 * job carries both addresses, sealed. Retried for about three to six hours; dropped when not started within a day.
 */
export const sendEmailChangedNotice = defineJob({
  name: 'send-email-changed-notice',
  payload: z.object({ userId: z.number().int().positive(), sealedAddresses: z.string().min(1) }),
  queue: emailQueue({ retryLimit: 10, retentionMinutes: 24 * 60 }),
});
