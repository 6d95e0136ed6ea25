import { z } from 'zod';
import { defineJob, emailQueue } from '../define.ts';

/**
 * The e-mail to one owner that revocations of the account went overdue (modules/revocations/overdue.ts queues one
 * per owner in the transaction that marked them): one per owner, so a retry never mails the others twice.
 */
export const sendRevocationOverdueEmail = defineJob({
  name: 'send-revocation-overdue-email',
  payload: z.object({
    accountId: z.number().int().positive(),
    userId: z.number().int().positive(),
    revocationIds: z.array(z.string().min(1).max(64)).min(1).max(500),
  }),
  queue: emailQueue({ retryLimit: 10, retentionMinutes: 24 * 60 }),
});
