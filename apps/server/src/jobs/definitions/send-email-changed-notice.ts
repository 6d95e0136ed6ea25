import { z } from 'zod';
import { authEmailQueue, openSealed } from '../../modules/auth/email-jobs.ts';
import { defineJob } from '../define.ts';

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
  queue: authEmailQueue({ retryLimit: 10, retentionMinutes: 24 * 60 }),
  async handler({ userId, sealedAddresses }, context) {
    const opened = openSealed(context, sealedAddresses, emailChangedAddressesSeal(userId));
    if (opened === undefined) return { outcome: 'unreadable' };
    const addresses = changedAddresses.parse(JSON.parse(opened));
    return { outcome: await context.services.emailChange.deliverChangedNotice(userId, addresses) };
  },
});
