import { schema, type Tx } from '@veriform/db';
import { and, eq, inArray, isNull } from 'drizzle-orm';

const { verificationCertificates } = schema;

/**
 * The certificates of verifications the retention purge removed (issue #37, ADR 45) become tombstones, in the purge's
 * transaction: `purged_at` set, the content and the unlock salt removed, while the row keeps its hash, signature and
 * place in the chain (the immutability trigger allows exactly this, once). The public page and the file check then
 * answer "authentic; its content was removed under the retention policy on …", and the stored chain still verifies
 * end to end (`checkStoredChain`). Answers how many became tombstones.
 */
export async function tombstoneCertificates(
  tx: Tx,
  accountId: number,
  verificationIds: readonly number[],
  at: Date,
): Promise<number> {
  if (verificationIds.length === 0) return 0;
  const done = await tx
    .update(verificationCertificates)
    .set({ purgedAt: at, content: null, unlockSalt: null })
    .where(
      and(
        eq(verificationCertificates.accountId, accountId),
        inArray(verificationCertificates.verificationId, [...verificationIds]),
        isNull(verificationCertificates.purgedAt),
      ),
    )
    .returning({ id: verificationCertificates.id });
  return done.length;
}
