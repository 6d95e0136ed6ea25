import type { Tx } from '@veriform/db';
import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';

/** A verification's columns as the statement that asks names them (a table, an alias or a subquery's). */
export type HeldVerification = {
  accountId: SQLWrapper;
  verifyFormId: SQLWrapper;
  cellPhone: SQLWrapper;
  email: SQLWrapper;
  id: SQLWrapper;
};

/**
 * The one rule of what a legal hold reaches (issue #37): a hold not released, of the verification's account, on the
 * whole account, on its form, on its number or its address, or on it. The purge, the redaction, an erasure request
 * and every read of `heldBy` ask this fragment, so the rule has one home and runs in SQL, beside the rows.
 */
const reaching = (
  v: HeldVerification,
): SQL => sql`h.account_id = ${v.accountId} and h.released_at is null and (
    h.scope = 'account'
    or (h.scope = 'form' and h.verify_form_id = ${v.verifyFormId})
    or (h.scope = 'identifier' and (h.phone = ${v.cellPhone} or h.email = lower(${v.email})))
    or (h.scope = 'verification' and h.verification_id = ${v.id})
  )`;

/** True when a hold reaches the verification (a condition for a WHERE). */
export const isHeld = (v: HeldVerification): SQL<boolean> =>
  sql<boolean>`exists (select 1 from legal_holds h where ${reaching(v)})`;

/** The ids of the holds that reach the verification, oldest first (`heldBy`); an empty array when none. */
export const heldBy = (v: HeldVerification): SQL<string[]> =>
  sql<string[]>`array(select h.id from legal_holds h where ${reaching(v)} order by h.placed_at, h.id)`;

/**
 * The same rule for one hold the statement already names `h` (a row of `legal_holds h` in scope): whether it reaches
 * the verification. The holds module counts a hold's reach with it.
 */
export const reachedByHold = (v: HeldVerification): SQL<boolean> => sql<boolean>`(${reaching(v)})`;

/**
 * Orders the account's hold placements against what removes evidence (issue #37): placing a hold takes this lock in
 * its transaction, and so does a redaction (and the purge, an erasure) before it asks `isHeld`. Whichever comes second
 * sees the first committed: a hold placed while a purge runs either waits and then holds what is left, or is seen by it.
 * Transaction-scoped; one per account.
 */
export async function lockLegalHolds(tx: Tx, accountId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`legal-holds:${accountId}`}))`);
}
