import type { CertificateStanding, CertificateStatus } from '@veriform/contracts';
import type { CertificateRow } from './service.ts';
import type { StandingFacts } from './standing-facts.ts';

export { type StandingFacts, standingFactsOf } from './standing-facts.ts';

type StandingColumns = Pick<CertificateRow, 'revokedAt' | 'revocationReason' | 'redactedAt' | 'purgedAt'> &
  StandingFacts;

/**
 * Purged wins over redacted, and redacted over revoked: once the consumer's data is gone, that is what a reader must
 * learn first (the content they came to see is not there), whatever the account thought of the certificate before; and
 * once the retention policy removed the verification itself (issue #37), that is the last word.
 */
export function statusOf(row: StandingColumns): CertificateStatus {
  if (row.purgedAt !== null) return 'purged';
  if (row.redactedAt !== null) return 'redacted';
  if (row.revokedAt !== null) return 'revoked';
  return 'valid';
}

/** Where a certificate stands now, as every check of it says (ADR 24). */
export function standingOf(row: StandingColumns): CertificateStanding {
  return {
    status: statusOf(row),
    revokedAt: row.revokedAt?.toISOString() ?? null,
    revocationReason: row.revocationReason,
    redactedAt: row.redactedAt?.toISOString() ?? null,
    purgedAt: row.purgedAt?.toISOString() ?? null,
    // Beside the signed content, never in it: the certificate's bytes stay as they were signed.
    consentRevokedAt: row.consentRevokedAt?.toISOString() ?? null,
    // Unsigned too: checks come after the certificate, and a later one may answer otherwise.
    reassignment: row.reassignment,
  };
}

/** `cert_` + 22 base64url characters (128 bits): anything else is answered 404 without a query. */
const CERTIFICATE_ID = /^cert_[A-Za-z0-9_-]{22}$/;

export const isCertificateId = (value: string) => CERTIFICATE_ID.test(value);
