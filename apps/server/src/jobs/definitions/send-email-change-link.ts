import { z } from 'zod';
import { defineJob, emailQueue } from '../define.ts';

/**
 * The link that confirms an e-mail change, to the NEW address (modules/auth/email-change.ts: the request's and the
 * resend's own transaction). The request is named by its user and requested-at; the handler sends a link minted then,
 * only while that request is still pending (not confirmed, cancelled, replaced or expired). Retried for about three
 * to six hours; dropped when not started within a day.
 */
export const sendEmailChangeLink = defineJob({
  name: 'send-email-change-link',
  payload: z.object({ userId: z.number().int().positive(), requestedAt: z.iso.datetime() }),
  queue: emailQueue({ retryLimit: 10, retentionMinutes: 24 * 60 }),
});
