/**
 * The public-verify module's public entry: what app.ts, services.ts and other modules may use (ADR 0036). Everything else in
 * the folder is the module's own.
 */
export { contextOf, publicVerifyRoutes } from './routes.ts';
export { createPublicVerifyService, type PublicVerifyService } from './service.ts';
