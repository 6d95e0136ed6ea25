import type { ApiReassignment } from '@veriform/contracts';
import { type Db, schema } from '@veriform/db';
import { eq, sql } from 'drizzle-orm';
import { reassignmentOf } from '../../domain/api-verification.ts';
import {
  approvedAttemptOn,
  latestReassignment,
  reassignmentShownColumns,
  revocationColumns,
  revocationMarkOn,
} from '../verifications/index.ts';

const { verifications } = schema;

/** What the standing says beside the signed content, read for the one verification in one query. */
export type StandingFacts = {
  /** The consumer's revocation of consent since the verification (issue #35). */
  consentRevokedAt: Date | null;
  /** The latest reassigned-number check since the verification (issue #36). */
  reassignment: ApiReassignment | null;
};

/**
 * What happened to the certificate's verification since it was made, beside the signed content: when the consumer
 * revoked consent (issue #35, the verifications module's join of the revocations rule; null once redacted, since no
 * revocation names a masked number), and the latest reassigned-number check of its approved code (issue #36, the
 * lookups module's rule).
 */
export async function standingFactsOf(db: Db, verificationId: number): Promise<StandingFacts> {
  const [row] = await db
    .select({ revokedAt: revocationColumns.revokedAt, ...reassignmentShownColumns })
    .from(verifications)
    .leftJoin(schema.revocationMarks, revocationMarkOn)
    .leftJoin(schema.verificationAttempts, approvedAttemptOn)
    .leftJoinLateral(latestReassignment, sql`true`)
    .where(eq(verifications.id, verificationId))
    .limit(1);
  return { consentRevokedAt: row?.revokedAt ?? null, reassignment: row ? reassignmentOf(row) : null };
}
