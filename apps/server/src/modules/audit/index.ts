/**
 * The audit module's public entry: what app.ts, services.ts and other modules may use (ADR 0036). Everything else in
 * the folder is the module's own.
 */
export {
  type AuditEntry,
  type AuditLog,
  auditTarget,
  changesOf,
  createAuditLog,
  filtersForTheLog,
  readEntry,
  type SystemCaller,
} from './log.ts';
export { pruneAuditEvents } from './retention.ts';
export { auditRoutes } from './routes.ts';
export { type AuditReader, createAuditReader } from './service.ts';
