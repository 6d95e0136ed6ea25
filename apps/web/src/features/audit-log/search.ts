import { type AuditSearch, auditSearchSchema } from '@veriform/contracts';
import { searchValuesAsText } from '../../lib/verification-search';

/**
 * `validateSearch` of /settings/audit-log: every bad value in a shared link falls back to its default (the contract's
 * catches). The router reads `?actorId=7` as the number 7, so values are read as text first, as the activity log does.
 */
export function validateAuditSearch(raw: Record<string, unknown>): AuditSearch {
  return auditSearchSchema.parse(searchValuesAsText(raw));
}

/** The defaults, kept out of the URL (the plain link is /settings/audit-log). */
export const auditSearchDefaults: AuditSearch = auditSearchSchema.parse({});
