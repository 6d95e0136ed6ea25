/**
 * The webhooks module's public entry: what app.ts, services.ts and other modules may use (ADR 0036). Everything else in
 * the folder is the module's own.
 */
export {
  createWebhookEvents,
  EVENT_ID_PATTERN,
  newEventId,
  type WebhookEventInput,
  type WebhookEvents,
} from './events.ts';
export { sendWebhookFailingEmail } from './failing-email.ts';
export { createWebhookOperations, type WebhookOperations } from './operations.ts';
export { endpointTarget } from './replay.ts';
export { webhookEndpointRoutes } from './routes.ts';
export { createWebhookDeliveryStore, createWebhookSender, type WebhookSender } from './sender.ts';
export { createWebhookEndpointService, type WebhookEndpointService } from './service.ts';
