/**
 * The auth module's public entry: what app.ts, services.ts and other modules may use (ADR 0036). Everything else in
 * the folder is the module's own.
 */
export { createEmailChange, type EmailChange } from './email-change.ts';
export { createEmailVerification, type EmailVerification } from './email-verification.ts';
export { createPasswordReset, type PasswordReset } from './password-reset.ts';
export { authRoutes } from './routes.ts';
export { type AuthService, createAuthService, LOGIN_FAILURE_LIMITS } from './service.ts';
export { viewerState } from './viewer.ts';
