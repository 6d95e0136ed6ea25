import { z } from 'zod';
import { defineJob } from '../define.ts';

/**
 * One attempt of one webhook delivery (issue #17 item 3; modules/webhooks/sender.ts). A failed attempt is not a
 * failed job: the sender records it and queues the next attempt with its own delay (5 s … 10 h, ADR 21), so
 * pg-boss's retries are only for a crash or a database error in between (the attempt runs again; `attempt`, the
 * number of attempts already made when it was queued, makes a second run of an attempt already recorded a no-op).
 */
export const deliverWebhook = defineJob({
  name: 'deliver-webhook',
  payload: z.object({
    deliveryId: z.number().int().positive(),
    attempt: z.number().int().min(0),
    trigger: z.enum(['scheduled', 'replay', 'test']),
  }),
  queue: {
    policy: 'standard',
    retryLimit: 5,
    retryDelay: 5,
    retryBackoff: true,
    // An attempt takes at most 10 s (lib/webhook-delivery.ts); past 30 s its process is gone and another takes it.
    expireInSeconds: 30,
    // Retries wait up to 10 h (plus jitter) before they may start.
    retentionMinutes: 24 * 60,
  },
  // Attempts mostly wait on the network: many at once per process.
  worker: { batchSize: 16, pollingIntervalSeconds: 1 },
  async handler(payload, { services, log }) {
    return { outcome: await services.webhookSender.attempt(payload, log) };
  },
});
