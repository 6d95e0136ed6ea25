/**
 * The mfa module's public entry (ADR 0036, issue #38): second factors on the server — TOTP, recovery codes, the
 * sign-in's second step and step-up. What app.ts, services.ts and other modules may use.
 */
export { mfaRoutes } from './routes.ts';
export { createMfaService, type Guesses, type MfaService } from './service.ts';
