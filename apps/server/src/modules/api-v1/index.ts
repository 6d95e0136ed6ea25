/**
 * The api-v1 module's public entry: what app.ts, services.ts and other modules may use (ADR 0036). Everything else in
 * the folder is the module's own.
 */
export { type ApiEvents, createApiEvents, pruneWebhookEvents } from './events.ts';
export { pruneIdempotencyKeys, redactIdempotentAnswers } from './idempotency-store.ts';
export { apiDocsRoutes, registerOpenApi } from './openapi.ts';
export { isApiV1, PROBLEM_CONTENT_TYPE, problemOfAppError, problemOfStatus } from './problems.ts';
export { apiV1Routes } from './routes.ts';
export { type ApiVerifications, createApiVerifications } from './verifications.ts';
