/**
 * The sso module's public entry: what app.ts, services.ts and other modules may use (ADR 0036). Everything else in
 * the folder is the module's own.
 */
export { ssoRoutes } from './routes.ts';
export { createSsoService, refusePasswordUnderSso, type SsoService, ssoRequiredFor } from './service.ts';
