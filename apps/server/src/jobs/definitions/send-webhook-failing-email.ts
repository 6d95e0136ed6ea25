import { z } from 'zod';
import { defineJob, emailQueue } from '../define.ts';

/**
 * The e-mail to one owner that an endpoint has failed for a day, or was disabled after WEBHOOK_DISABLE_AFTER_DAYS
 * (modules/webhooks/sender.ts queues one per owner in the transaction that warned or disabled). SMTP hiccups are
 * retried like the other e-mails; one per owner, so a retry never mails the others twice.
 */
export const sendWebhookFailingEmailJob = defineJob({
  name: 'send-webhook-failing-email',
  payload: z.object({
    endpointId: z.number().int().positive(),
    userId: z.number().int().positive(),
    kind: z.enum(['warning', 'disabled']),
  }),
  queue: emailQueue({ retryLimit: 10, retentionMinutes: 24 * 60 }),
});
