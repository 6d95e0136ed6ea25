import type { Tx } from '@veriform/db';
import { schema } from '@veriform/db';
import { eq, sql } from 'drizzle-orm';
import { rowsOf } from '../../lib/rows.ts';
import { firstRevocationOfVerification, type RevocationReach, reachedVerifications } from './standing.ts';

const { revocationMarks } = schema;

/**
 * The marks of the verifications a revocation reaches, kept in the transaction that makes it revoking (recorded open,
 * or decided to be one): for each, the rule's first revoking revocation since it (standing.ts), which is this one or an
 * earlier one. A mark only moves to an earlier revocation: two revocations of one number committed at once (one
 * received earlier, say backdated by API v1) each compare with the row the other wrote (ON CONFLICT reads the latest
 * committed one), so the earlier wins whichever commits last. Answers how many verifications it marked or moved.
 */
export async function markRevokedVerifications(tx: Tx, revocation: RevocationReach): Promise<number> {
  const first = firstRevocationOfVerification();
  const marked = await tx.execute(sql`
    insert into ${revocationMarks} (verification_id, account_id, is_test, revocation_id, received_at)
    select v.id, v.account_id, v.is_test, first.id, first.received_at
    from verifications v cross join lateral ${first} first
    where ${reachedVerifications(revocation)}
    on conflict (verification_id) do update
      set revocation_id = excluded.revocation_id, received_at = excluded.received_at
      where (excluded.received_at, excluded.revocation_id) < (${revocationMarks.receivedAt}, ${revocationMarks.revocationId})
    returning verification_id`);
  return rowsOf(marked).length;
}

/** A redacted verification's mark goes: its number and address are masked, so no revocation names it any more. */
export async function unmarkVerification(tx: Tx, verificationId: number): Promise<void> {
  await tx.delete(revocationMarks).where(eq(revocationMarks.verificationId, verificationId));
}
