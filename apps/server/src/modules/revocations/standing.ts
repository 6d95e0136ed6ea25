import { type SQL, sql } from 'drizzle-orm';

/**
 * Whether consent still stands (issue #35): the ONE home of "revoked since". A revocation covers the account's consent
 * for its number or address, on every form, from the moment it was received; a verification made before it stays
 * evidence of its moment, and a later verification is new consent. Only an open (overdue included) or acknowledged
 * revocation revokes: a possible one waits for a member's decision, a dismissed one was judged not to be one. A
 * revocation reaches the verifications of its own mode only (a test key's revokes the test numbers'). The verdict
 * (modules/contactability) and a verification's `revokedAt` (detail, lists, CSV, certificate) both read it here.
 */
export const REVOKING_STATUSES = ['open', 'acknowledged'] as const;

/** The statuses as a SQL list of constants (never input: they are this file's own). */
const REVOKING_LIST = sql.raw(REVOKING_STATUSES.map((status) => `'${status}'`).join(', '));

export type RevocationSince = {
  accountId: SQL | number;
  isTest: SQL | boolean;
  /** The verification's number (E.164) and address (null for a code by SMS). */
  phone: SQL;
  email: SQL;
  /** From when: the verification's own time. */
  since: SQL;
  /** Up to when (the instant a verdict is asked about); every one received so far when left out. */
  until?: SQL;
};

/**
 * A subquery answering the first revocation (`id`, `received_at`) of `phone` or `email` received at or after `since`
 * (and at or before `until`), for a LATERAL join. Each branch walks its partial index (account, number or address,
 * time) for one row.
 */
export function firstRevocationSince(o: RevocationSince): SQL {
  const until = o.until ? sql` and r.received_at <= ${o.until}` : sql``;
  const branch = (column: SQL, value: SQL) => sql`(select r.id, r.received_at from revocations r
    where r.account_id = ${o.accountId} and ${column} = ${value} and r.received_at >= ${o.since}${until}
      and r.is_test = ${o.isTest} and r.status in (${REVOKING_LIST})
    order by r.received_at, r.id limit 1)`;
  return sql`(select first.id, first.received_at from (${branch(sql`r.phone`, o.phone)} union all ${branch(
    sql`r.email`,
    o.email,
  )}) first order by first.received_at, first.id limit 1)`;
}

/** `firstRevocationSince` for the verification row a statement walks as `v` (its own account, mode, keys and time). */
export const firstRevocationOfVerification = (): SQL =>
  firstRevocationSince({
    accountId: sql`v.account_id`,
    isTest: sql`v.is_test`,
    phone: sql`v.cell_phone`,
    email: sql`v.email`,
    since: sql`v.verified_at`,
  });

/**
 * A revocation as the rule reads it: whose consent (account, mode, number or address) from when; values, or columns of
 * a row the statement walks (`sql\`r.phone\``).
 */
export type RevocationReach = {
  accountId: SQL | number;
  isTest: SQL | boolean;
  phone: SQL | string | null;
  email: SQL | string | null;
  receivedAt: SQL | Date;
};

/**
 * The same rule from the revocation's side, as a condition on `verifications` (alias `v`): the verifications a
 * revocation reaches, its account's and mode's of its number or address made at or before it was received (an earlier
 * revocation may have revoked them first: `firstRevocationSince` says which). Each key walks its index.
 */
export function reachedVerifications(r: RevocationReach): SQL {
  const keys = [
    ...(r.phone === null ? [] : [sql`v.cell_phone = ${r.phone}`]),
    ...(r.email === null ? [] : [sql`v.email = ${r.email}`]),
  ];
  return sql`v.account_id = ${r.accountId} and v.is_test = ${r.isTest}
    and (${keys.length === 0 ? sql`false` : sql.join(keys, sql` or `)})
    and v.verified_at <= ${r.receivedAt}`;
}
