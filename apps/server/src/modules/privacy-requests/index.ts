/**
 * Data-subject requests (issue #37 item 3, ADR 47): access, erasure and restriction of a person's data, filed by owners
 * in Settings or by API v1, with their due dates by law (due.ts), what they match (matches.ts: the one rule of "find
 * everything"), the job that carries them out (service.ts `carryOutNow`: erasure through the verifications module's
 * redaction, held evidence restricted instead, every run's erasures counted in `erased_so_far`), the access bundle
 * (bundle.ts), the hourly sweep reopening a request whose job died (`reopenStalled`) and the 24-month prune.
 */
export { dueAtOf, extendedDueAt, isOverdue } from './due.ts';
export { privacyRequestRoutes, sendZip } from './routes.ts';
export {
  createPrivacyRequests,
  PRIVACY_REQUEST_RETENTION_MONTHS,
  type PrivacyRequests,
} from './service.ts';
