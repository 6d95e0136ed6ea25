/**
 * The consent module's public entry: what app.ts, services.ts and other modules may use (ADR 0036). Everything else in
 * the folder is the module's own.
 */
export { consentRoutes } from './routes.ts';
export { type ConsentService, type CurrentConsent, consentRefusal, createConsentService } from './service.ts';
