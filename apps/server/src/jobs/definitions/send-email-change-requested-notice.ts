import { z } from 'zod';
import { defineJob, emailQueue } from '../define.ts';

/**
 * The notice to the OLD address that a change was asked for, with the link that cancels it
 * (modules/auth/email-change.ts: the request's own transaction, or a resend's that re-armed an expired request). Sent
 * with a link minted then, only while that request is still pending. Retried for about three to six hours; dropped
 * when not started within a day.
 */
export const sendEmailChangeRequestedNotice = defineJob({
  name: 'send-email-change-requested-notice',
  payload: z.object({ userId: z.number().int().positive(), requestedAt: z.iso.datetime() }),
  queue: emailQueue({ retryLimit: 10, retentionMinutes: 24 * 60 }),
});
