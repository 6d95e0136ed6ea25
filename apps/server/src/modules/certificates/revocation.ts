import type { VerificationCertificateStanding } from '@veriform/contracts';
import type { Db } from '@veriform/db';
import { schema, transaction } from '@veriform/db';
import { and, eq, isNull } from 'drizzle-orm';
import { z } from 'zod';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import type { AccountContext } from '../../plugins/account-context.ts';
import type { AuditLog } from '../audit/index.ts';
import type { CertificateRow, CertificateService } from './service.ts';
import { type StandingFacts, standingFactsOf, standingOf } from './standing.ts';

const { verificationCertificates, verifications } = schema;

const maskedNumberSchema = z.object({ verification: z.object({ cellPhone: z.string() }) });

/** The log names the verification by its number, masked as signed; a redacted one has no number left to name. */
const targetName = (row: CertificateRow) =>
  row.content === null
    ? `Verification ${row.verificationId}`
    : maskedNumberSchema.parse(JSON.parse(row.content)).verification.cellPhone;

const standingWithId = (row: CertificateRow, facts: StandingFacts): VerificationCertificateStanding => ({
  ...standingOf({ ...row, ...facts }),
  certificateId: row.id,
  issuedAt: row.createdAt.toISOString(),
});

export const revocationTexts = {
  alreadyRevoked: (at: Date) => `This certificate was already revoked on ${at.toISOString()}.`,
};

/**
 * Revoking a certificate (issue #19, ADR 24) and reading where a verification's certificate stands. Revoking is the
 * account's statement that it no longer stands behind the certificate: the signed file still verifies, and every
 * check of it says revoked, when and why. Once; the trigger of migration 0021 refuses any later change.
 */
export function createCertificateRevocation(deps: {
  db: Db;
  clock: Clock;
  audit: AuditLog;
  certificates: CertificateService;
}) {
  const { db, clock, audit, certificates } = deps;

  /**
   * Issues the certificate first when there is none (revoking what was never issued would leave nothing for a holder
   * to check), then sets the revocation under the guard `revoked_at is null`: of many requests at once, the one
   * whose update finds the row unrevoked wins (PostgreSQL re-reads the row after the first commits), and its audit
   * event commits with it; every other is told when it was revoked.
   */
  async function revoke(
    ctx: AccountContext,
    verificationId: number,
    reason: string,
  ): Promise<VerificationCertificateStanding> {
    const issued = await certificates.issue(ctx.accountId, verificationId);
    return transaction(db, async (tx) => {
      const [row] = await tx
        .update(verificationCertificates)
        .set({ revokedAt: clock.now(), revocationReason: reason })
        .where(and(eq(verificationCertificates.id, issued.id), isNull(verificationCertificates.revokedAt)))
        .returning();
      if (!row) {
        const [current] = await tx
          .select({ revokedAt: verificationCertificates.revokedAt })
          .from(verificationCertificates)
          .where(eq(verificationCertificates.id, issued.id));
        throw AppError.nonField(
          'validation_error',
          revocationTexts.alreadyRevoked(current?.revokedAt ?? clock.now()),
        );
      }
      await audit.record(tx, ctx, {
        action: 'verification.certificate_revoked',
        targets: [{ type: 'verification', id: String(row.verificationId), name: targetName(row) }],
        changes: { certificateId: row.id, reason },
      });
      return standingWithId(row, await standingFactsOf(tx, row.verificationId));
    });
  }

  /** Where the verification's certificate stands, issuing none: no certificate yet reads as valid (or redacted). */
  async function standing(
    ctx: AccountContext,
    verificationId: number,
  ): Promise<VerificationCertificateStanding> {
    const [verification] = await db
      .select({ redactedAt: verifications.redactedAt })
      .from(verifications)
      .where(and(eq(verifications.accountId, ctx.accountId), eq(verifications.id, verificationId)))
      .limit(1);
    if (!verification) throw new AppError('not_found');
    const facts = await standingFactsOf(db, verificationId);
    const [row] = await db
      .select()
      .from(verificationCertificates)
      .where(eq(verificationCertificates.verificationId, verificationId))
      .limit(1);
    if (row) return standingWithId(row, facts);
    return {
      status: verification.redactedAt === null ? 'valid' : 'redacted',
      revokedAt: null,
      revocationReason: null,
      redactedAt: verification.redactedAt?.toISOString() ?? null,
      purgedAt: null,
      consentRevokedAt: facts.consentRevokedAt?.toISOString() ?? null,
      reassignment: facts.reassignment,
      certificateId: null,
      issuedAt: null,
    };
  }

  return { revoke, standing };
}

export type CertificateRevocation = ReturnType<typeof createCertificateRevocation>;
