/**
 * The media module's public entry: what app.ts, services.ts and other modules may use (ADR 0036). Everything else in
 * the folder is the module's own.
 */
export { mediaRoutes } from './routes.ts';
export { createMediaService, type MediaService } from './service.ts';
