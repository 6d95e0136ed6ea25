import { schema, type Tx } from '@veriform/db';
import { and, eq, inArray, isNotNull, ne, or, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { maskPhone } from '../../domain/phone.ts';

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

/** The legal holds' rule for a number alone (`isNumberHeld` of modules/legal-holds), passed in by the caller. */
export type HeldNumberRule = (accountId: SQLWrapper, phone: SQLWrapper) => SQL<boolean>;

/**
 * An erasure request's reach into the carrier lookups of a number (issue #37 item 3, ADR 47 amendment), beyond those of
 * the verifications it redacted: the account's answered or failed records of the mode about the number, masked as
 * `redactLookupsOf` masks them (the number masked, the provider's body removed, the typed answer kept). Kept whole: a
 * held number's (the holds' rule with the account and the number alone), and a record an attempt still naming the
 * number in full links (at its send, or by a reassigned-number check: the evidence of a verification the erasure kept).
 * A pending record is a request in flight, left to be answered. The caller runs it under the holds' lock. Answers how
 * many were masked.
 */
export async function eraseLookupsOf(
  tx: Tx,
  who: { accountId: number; isTest: boolean; phone: string },
  held: HeldNumberRule,
): Promise<number> {
  const phone = sql`${lookups.phone}`;
  const masked = await tx
    .update(lookups)
    .set({ phone: maskPhone(who.phone), answer: null })
    .where(
      and(
        eq(lookups.accountId, who.accountId),
        eq(lookups.isTest, who.isTest),
        eq(lookups.phone, who.phone),
        ne(lookups.status, 'pending'),
        sql`not ${held(lookups.accountId, phone)}`,
        sql`not exists (select 1 from ${verificationAttempts} kept
          where kept.account_id = ${lookups.accountId} and kept.cell_phone = ${phone}
            and (kept.line_type_lookup_id = ${lookups.id} or kept.sim_swap_lookup_id = ${lookups.id}))`,
        sql`not exists (select 1 from ${reassignmentChecks} rc join ${verificationAttempts} kept on kept.id = rc.attempt_id
          where rc.lookup_id = ${lookups.id} and kept.cell_phone = ${phone})`,
      ),
    )
    .returning({ id: lookups.id });
  return masked.length;
}
