/**
 * The code-delivery module's public entry: what app.ts, services.ts and other modules may use (ADR 0036). Everything else in
 * the folder is the module's own.
 */
export { createTwilioStatus, type TwilioStatus } from './service.ts';
export { twilioStatusCallbackSchema, twilioStatusRoutes } from './twilio-status-routes.ts';
