import { schema, type Tx } from '@veriform/db';
import { and, inArray, isNotNull, or, sql } from 'drizzle-orm';

const { lookups, reassignmentChecks, verificationAttempts } = schema;

/**
 * A verification's redaction (issue #19, ADR 25) reaches its carrier lookups (issue #36, ADR 42): the records its
 * attempts linked when their codes were requested (line type, SIM swap) and those of its reassigned-number checks. Each
 * keeps what it answered (the typed columns: the line type, the carrier's name, the SIM swap's date, yes / no / no
 * data, the error code) and when, so the check still stands as evidence; the number becomes its masked form and the
 * provider's body, which repeats the number in several spellings, is removed. A masked number matches no later
 * question: the day's reuse cannot answer from it. A record is shared only by questions about the same number of the
 * same account (the day's reuse), so another verification of that number loses its copy of the number too.
 */
export async function redactLookupsOf(tx: Tx, attemptIds: string[], maskedPhone: string): Promise<number> {
  if (attemptIds.length === 0) return 0;
  const linkedAtSend = tx
    .select({
      id: sql<number>`unnest(array[${verificationAttempts.lineTypeLookupId}, ${verificationAttempts.simSwapLookupId}])`,
    })
    .from(verificationAttempts)
    .where(
      and(
        inArray(verificationAttempts.id, attemptIds),
        or(isNotNull(verificationAttempts.lineTypeLookupId), isNotNull(verificationAttempts.simSwapLookupId)),
      ),
    );
  const checked = tx
    .select({ id: reassignmentChecks.lookupId })
    .from(reassignmentChecks)
    .where(inArray(reassignmentChecks.attemptId, attemptIds));
  const redacted = await tx
    .update(lookups)
    .set({ phone: maskedPhone, answer: null })
    .where(or(inArray(lookups.id, linkedAtSend), inArray(lookups.id, checked)))
    .returning({ id: lookups.id });
  return redacted.length;
}
