/**
 * The verifications module's public entry: what app.ts, services.ts and other modules may use (ADR 0036). Everything else in
 * the folder is the module's own.
 */
export { countByDays } from './count.ts';
export { verificationDetailReportRoutes } from './detail-report-routes.ts';
export { emitExpiredVerifications } from './expired-events.ts';
export {
  accountSlug,
  createLocalTimeFormatter,
  createVerificationExport,
  exportFilename,
  exportTuning,
  type VerificationExportService,
} from './export.ts';
export { attemptWhere, type ResolvedForms, resolveForms } from './filters.ts';
export { createVerificationRedaction, type VerificationRedaction } from './redaction.ts';
export { verificationRedactionRoutes } from './redaction-routes.ts';
export { revocationColumns, revocationMarkOn } from './revoked.ts';
export { verificationRoutes } from './routes.ts';
export {
  approvedAttemptOn,
  carrierShownColumns,
  createVerificationService,
  detailRowOf,
  latestReassignment,
  reassignmentShownColumns,
  toDetailDto,
  type VerificationService,
} from './service.ts';
export { verificationTimeline } from './timeline.ts';
