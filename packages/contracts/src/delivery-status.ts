import { z } from 'zod';

// Its own small module: the web app's attempts route reads the list in its search params, which run in the start-up
// bundle, and importing it from api-v1.ts brought the whole API v1 contract (with audit and webhooks) in there.

/**
 * A code message's delivery status (issue #18): `queued` (issued, not yet with the provider), `sent` (the provider or
 * mail server took it), then for SMS the carrier's answer through Twilio: `delivered`, `undelivered` or `failed`.
 * `unknown`: an SMS with no answer 10 minutes after `sent` — never shown as delivered.
 */
export const apiDeliveryStatuses = [
  'queued',
  'sent',
  'delivered',
  'undelivered',
  'failed',
  'unknown',
] as const;
export const apiDeliveryStatusSchema = z.enum(apiDeliveryStatuses);
export type ApiDeliveryStatus = z.infer<typeof apiDeliveryStatusSchema>;
