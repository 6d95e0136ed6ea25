/**
 * The api-keys module's public entry: what app.ts, services.ts and other modules may use (ADR 0036). Everything else in
 * the folder is the module's own.
 */
export { apiKeyRoutes } from './routes.ts';
export { type ApiKeyService, createApiKeyService } from './service.ts';
