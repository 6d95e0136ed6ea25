/**
 * The verify-forms module's public entry: what app.ts, services.ts and other modules may use (ADR 0036). Everything else in
 * the folder is the module's own.
 */
export { toApiForm } from './api-object.ts';
export { verifyFormRoutes } from './routes.ts';
export { createVerifyFormService, escapeLike, type VerifyFormService } from './service.ts';
