import { z } from 'zod';
import type { Capability } from './teams.ts';

/**
 * What an API key may do (issue #15; `audit:read` for the audit log, issue #16; `events:read` for webhook events,
 * issue #17): its scopes, and in this ONE table the capabilities (teams.ts) each scope grants. A key has exactly the
 * capabilities of its scopes; no scope grants managing the team, the company or the forms, nor the dashboard's
 * reports: those stay with people.
 */
export const apiKeyScopes = [
  'verifications:write',
  'verifications:read',
  'forms:read',
  'audit:read',
  'events:read',
  'revocations:read',
  'revocations:write',
  'contactability:read',
  'privacy:read',
  'privacy:write',
] as const;
export const apiKeyScopeSchema = z.enum(apiKeyScopes);
export type ApiKeyScope = z.infer<typeof apiKeyScopeSchema>;

export const apiKeyScopeGrants: Readonly<Record<ApiKeyScope, readonly Capability[]>> = {
  /** Start, check, resend and cancel verifications (numbers masked in what is read back). */
  'verifications:write': ['writeVerifications'],
  /** Verifications with their numbers and evidence, as the activity log shows them to a member with canSearchData. */
  'verifications:read': ['searchData'],
  /** The account's forms, without changing them. */
  'forms:read': ['readForms'],
  /** The account's audit events. */
  'audit:read': ['readAuditLog'],
  /** The account's events as webhooks send them (issue #17), numbers in full. */
  'events:read': ['readEvents'],
  /** The account's revocations of consent (issue #35), numbers in full. */
  'revocations:read': ['readRevocations'],
  /** Record a revocation received elsewhere, and acknowledge one as honoured. */
  'revocations:write': ['writeRevocations'],
  /** Ask "may I contact this number now?" and list the verdicts given. */
  'contactability:read': ['checkContactability'],
  /** The account's data-subject requests (issue #37), their matches and access bundles. */
  'privacy:read': ['readPrivacyRequests'],
  /** File data-subject requests, extend them once, and carry them out (erasure redacts in bulk). */
  'privacy:write': ['writePrivacyRequests'],
};

export function scopesGrant(scopes: readonly ApiKeyScope[], capability: Capability): boolean {
  return scopes.some((scope) => apiKeyScopeGrants[scope].includes(capability));
}
