/**
 * The test-numbers module's public entry: what app.ts, services.ts and other modules may use (ADR 0036). Everything else in
 * the folder is the module's own.
 */
export { testNumberRoutes } from './routes.ts';
export { createTestNumberService, type TestNumberService } from './service.ts';
