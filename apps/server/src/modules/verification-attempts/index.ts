/**
 * The verification-attempts module's public entry: what app.ts, services.ts and other modules may use (ADR 0036). Everything else in
 * the folder is the module's own.
 */
export { verificationAttemptRoutes } from './routes.ts';
export { createVerificationAttemptService, type VerificationAttemptService } from './service.ts';
