import type { CertificateStanding, CertificateStatus } from '@veriform/contracts';
import type { CertificateRow } from './service.ts';

type StandingColumns = Pick<CertificateRow, 'revokedAt' | 'revocationReason' | 'redactedAt'>;

/**
 * Redacted wins over revoked: once the consumer's data is gone, that is what a reader must learn first (the content
 * they came to see is not there), whatever the account thought of the certificate before.
 */
export function statusOf(row: StandingColumns): CertificateStatus {
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
  };
}

/** `cert_` + 22 base64url characters (128 bits): anything else is answered 404 without a query. */
const CERTIFICATE_ID = /^cert_[A-Za-z0-9_-]{22}$/;

export const isCertificateId = (value: string) => CERTIFICATE_ID.test(value);
