import { certificateSchema } from '@veriform/contracts';
import type { Db } from '@veriform/db';
import { schema } from '@veriform/db';
import { type ChainCheck, sha256Hex } from '@veriform/verify-certificate';
import { and, eq } from 'drizzle-orm';
import { AppError } from '../../lib/errors.ts';

const { verifications, verificationCertificates, certificateChainHeads } = schema;

/**
 * A redacted verification gets no certificate (issue #19, ADR 25): its content would be built from what was removed.
 * Inside the issuing transaction the row is read `for share`, which waits for a redaction holding it `for update`, so a
 * certificate gathered before a redaction committed is never stored after it. Another account's or an unknown
 * verification passes here: the caller answers not found for it as before.
 */
export async function refuseRedacted(
  db: Db,
  accountId: number,
  verificationId: number,
  lock = false,
): Promise<void> {
  const query = db
    .select({ redactedAt: verifications.redactedAt })
    .from(verifications)
    .where(and(eq(verifications.id, verificationId), eq(verifications.accountId, accountId)));
  const [row] = lock ? await query.for('share') : await query;
  if (row?.redactedAt)
    throw new AppError('not_found', {
      detail: `The consumer's personal data in this verification was redacted on ${row.redactedAt.toISOString()}; no certificate is issued for it.`,
    });
}

/**
 * One account's certificate chain checked where it is stored, redacted links included (the offline checker needs every
 * certificate's content, and a redacted one has none): `seq` 1, 2, 3… without gaps, each `prev_hash` the `sha256` of
 * the link before, the chain head at the last link; where the content is still there, its SHA-256 is the stored
 * `sha256` and its own `chain` says the same seq and prevHash. A redacted link stands for itself by its stored hash,
 * which its successor's signed `prevHash` also names, so it cannot be swapped without breaking the next signature.
 */
export async function checkStoredChain(db: Db, accountId: number): Promise<ChainCheck> {
  const rows = await db
    .select({
      seq: verificationCertificates.seq,
      prevHash: verificationCertificates.prevHash,
      sha256: verificationCertificates.sha256,
      content: verificationCertificates.content,
    })
    .from(verificationCertificates)
    .where(eq(verificationCertificates.accountId, accountId))
    .orderBy(verificationCertificates.seq);
  let prevHash: string | null = null;
  for (const [index, row] of rows.entries()) {
    const seq = index + 1;
    if (row.seq !== seq)
      return { ok: false, seq, reason: `certificate ${seq} is missing (next is ${row.seq})` };
    if (row.prevHash !== prevHash)
      return { ok: false, seq, reason: `prevHash is not the SHA-256 of certificate ${seq - 1}` };
    if (row.content !== null) {
      if (sha256Hex(row.content) !== row.sha256)
        return { ok: false, seq, reason: 'its content does not match its SHA-256' };
      const signed = certificateSchema.safeParse(JSON.parse(row.content));
      if (!signed.success || signed.data.chain.seq !== row.seq || signed.data.chain.prevHash !== row.prevHash)
        return { ok: false, seq, reason: 'its content names another place in the chain' };
    }
    prevHash = row.sha256;
  }
  const [head] = await db
    .select({ seq: certificateChainHeads.seq, sha256: certificateChainHeads.sha256 })
    .from(certificateChainHeads)
    .where(eq(certificateChainHeads.accountId, accountId));
  if (head && (head.seq !== rows.length || head.sha256 !== prevHash))
    return { ok: false, seq: head.seq, reason: `the chain's head is certificate ${head.seq}` };
  return { ok: true, count: rows.length, headHash: prevHash };
}
