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

/**
 * True when a hold reaches a row that names a number alone (a carrier lookup, a contactability verdict): the rule with
 * the account and the number, no form, address or verification.
 */
export const isNumberHeld = (accountId: SQLWrapper, phone: SQLWrapper): SQL<boolean> =>
  isHeld({
    accountId,
    verifyFormId: sql`null::integer`,
    cellPhone: phone,
    email: sql`null::text`,
    id: sql`null::bigint`,
  });

/** The ids of the holds that reach the verification, oldest first (`heldBy`); an empty array when none. */
export const heldBy = (v: HeldVerification): SQL<string[]> =>
  sql<string[]>`array(select h.id from legal_holds h where ${reaching(v)} order by h.placed_at, h.id)`;

/** The verification's columns as `verifications v` names them. */
const v: HeldVerification = {
  accountId: sql`v.account_id`,
  verifyFormId: sql`v.verify_form_id`,
  cellPhone: sql`v.cell_phone`,
  email: sql`v.email`,
  id: sql`v.id`,
};

/**
 * How many verifications the hold the statement names `h` (a row of `legal_holds h` in scope) reaches now, counted up
 * to `limit`, by the same rule. One branch per scope, each gated by the hold's scope (a one-time filter) and walking
 * its own index (the account's rows, its form's, its number's, its one row), each still asking the rule: so counting a
 * number's hold on an account of millions reads that number's rows, not the account's.
 */
export const reachCount = (limit: number): SQL<number> => sql<number>`(select count(*) from (
    select 1 from verifications v where h.scope = 'account' and v.account_id = h.account_id and ${reaching(v)}
    union all
    select 1 from verifications v where h.scope = 'form' and v.account_id = h.account_id
      and v.verify_form_id = h.verify_form_id and ${reaching(v)}
    union all
    select 1 from verifications v where h.scope = 'identifier' and h.phone is not null
      and v.account_id = h.account_id and v.cell_phone = h.phone and ${reaching(v)}
    union all
    select 1 from verifications v where h.scope = 'identifier' and h.email is not null
      and v.account_id = h.account_id and v.email is not null and ${reaching(v)}
    union all
    select 1 from verifications v where h.scope = 'verification' and v.id = h.verification_id and ${reaching(v)}
    limit ${limit}
  ) reached)`;

/**
 * Orders the account's hold placements against what removes evidence (issue #37): placing a hold takes this lock in
 * its transaction, and so does a redaction (and the purge, an erasure) before it asks `isHeld`. Whichever comes second
 * sees the first committed: a hold placed while a purge runs either waits and then holds what is left, or is seen by it.
 * Transaction-scoped; one per account.
 */
export async function lockLegalHolds(tx: Tx, accountId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`legal-holds:${accountId}`}))`);
}
