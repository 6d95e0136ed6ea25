import type { CertificateStanding, CertificateStatus } from '@veriform/contracts';
import { type Db, schema } from '@veriform/db';
import { eq } from 'drizzle-orm';
import { revocationColumns, revocationMarkOn } from '../verifications/index.ts';
import type { CertificateRow } from './service.ts';

const { verifications } = schema;

type StandingColumns = Pick<CertificateRow, 'revokedAt' | 'revocationReason' | 'redactedAt'> & {
  /** The consumer's revocation of consent since the verification (issue #35; consentRevokedAt below). */
  consentRevokedAt: Date | null;
};

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
    // Beside the signed content, never in it: the certificate's bytes stay as they were signed.
    consentRevokedAt: row.consentRevokedAt?.toISOString() ?? null,
  };
}

/**
 * When the consumer revoked consent for the certificate's verification since it was made (issue #35): the
 * verifications module's join of the revocations rule, read for the one verification. Null once redacted (its number
 * and address are masked, so no revocation names them).
 */
export async function consentRevokedAt(db: Db, verificationId: number): Promise<Date | null> {
  const [row] = await db
    .select({ revokedAt: revocationColumns.revokedAt })
    .from(verifications)
    .leftJoin(schema.revocationMarks, revocationMarkOn)
    .where(eq(verifications.id, verificationId))
    .limit(1);
  return row?.revokedAt ?? null;
}

/** `cert_` + 22 base64url characters (128 bits): anything else is answered 404 without a query. */
const CERTIFICATE_ID = /^cert_[A-Za-z0-9_-]{22}$/;

export const isCertificateId = (value: string) => CERTIFICATE_ID.test(value);
