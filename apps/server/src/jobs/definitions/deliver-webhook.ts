import { z } from 'zod';
import { defineRowJob } from '../define.ts';

/**
 * One attempt of one webhook delivery (issue #17 item 3; modules/webhooks/sender.ts), claimed from the delivery's own
 * row (ADR 33): a `webhook_deliveries` row whose `due_at` has come. A failed attempt is not a failed job: the sender
 * records it and makes the row due again after its own delay (5 s … 10 h, ADR 21), so these retries are only for a
 * crash or a database error in between (the attempt runs again; the row's attempt count, read when it was claimed,
 * makes a second run of an attempt already recorded a no-op).
 */
export const deliverWebhook = defineRowJob({
  name: 'deliver-webhook',
  payload: z.object({
    deliveryId: z.number().int().positive(),
    attempt: z.number().int().min(0),
    trigger: z.enum(['scheduled', 'replay', 'test']),
  }),
  retry: { limit: 5, delaySeconds: 5 },
  // An attempt takes at most 10 s (lib/webhook-delivery.ts); past 30 s its process is gone and another takes it.
  leaseSeconds: 30,
  // Attempts mostly wait on the network: many at once per process.
  worker: { batchSize: 16, pollingIntervalSeconds: 1 },
});
