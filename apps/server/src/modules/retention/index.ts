/**
 * The retention module's public entry (issue #37 item 1, ADR 45): the account's evidence retention policy (policy.ts,
 * `GET|PUT /api/accounts/{id}/retention`) and the daily purge that removes what is past it, leaving tombstones and the
 * counts (purge.ts, job `purge-expired-evidence`).
 */

export {
  createRetentionPolicy,
  nextPurgeAfter,
  type RetentionPolicyService,
  retentionCutoff,
} from './policy.ts';
export {
  type AccountPurge,
  type EvidencePurge,
  PURGE_BATCH,
  purgeAccount,
  purgeExpiredEvidence,
} from './purge.ts';
export { retentionRoutes } from './routes.ts';
