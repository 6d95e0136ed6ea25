import { schema } from '@veriform/db';
import { type SQL, sql } from 'drizzle-orm';
import { firstRevocationSince, REVOKING_STATUSES } from '../revocations/index.ts';

/**
 * A verification's revocation (issue #35) wherever the activity log shows one: the list's rows, the detail, the CSV,
 * and the log's `revoked` filter. The rule itself (which revocation, of which mode, since when) is
 * modules/revocations/standing.ts's `firstRevocationSince`; this file only places it in the log's statements.
 *
 * - A few rows (a page, the detail, a CSV batch on PGlite): a LATERAL join per row (`firstRevocationJoin`), two
 *   index probes each.
 * - Many rows (the filter, the CSV's COPY): driven from the revocations side (`revokedVerificationsSql`). An account
 *   has few revocations and each names one number or address, so their verifications are an index range of
 *   `verifications_account_phone_prefix_idx` (or `verifications_account_email_idx`) per revoked number or address;
 *   the rule is then applied to those rows alone, and the rest of the account is never visited. The COPY joins that
 *   small set by id (`revokedVerificationsJoin`, a hash join) instead of probing for each of a million rows, which
 *   doubled its time (docs/benchmarks.md, session 28).
 *
 * The verification's own time is `verified_at`, as the contactability verdict reads it (equal to `created_at`: both
 * are the approval's instant).
 */

const { verifications, revocations } = schema;

/** The alias the LATERAL join gives the first revocation: its `id` and `received_at`. */
const FIRST = sql.raw('first_revocation');

/** `LEFT JOIN LATERAL <this> ON true` after `verifications`: the row's first revoking revocation, or nulls. */
export const firstRevocationJoin: SQL = sql`${firstRevocationSince({
  accountId: sql`${verifications.accountId}`,
  isTest: sql`${verifications.isTest}`,
  phone: sql`${verifications.cellPhone}`,
  email: sql`${verifications.email}`,
  since: sql`${verifications.verifiedAt}`,
})} ${FIRST}`;

/** The joined revocation's columns, for a select beside `firstRevocationJoin`. */
export const revocationColumns = {
  revokedAt: sql<Date | null>`${FIRST}.received_at`.mapWith(revocations.receivedAt),
  revocationId: sql<string | null>`${FIRST}.id`,
};

/** `received_at` of the joined revocation, by `firstRevocationJoin` or `revokedVerificationsJoin` (the CSV formats it). */
export const revokedAtSql: SQL = sql`${FIRST}.received_at`;

/** Revocations that revoke, of the account (and of the view's mode, when it has one), with a number or an address. */
function revokingOf(accountId: number, isTest: boolean | undefined, column: 'phone' | 'email'): SQL {
  const statuses = sql.join(
    REVOKING_STATUSES.map((status) => sql`${status}`),
    sql`, `,
  );
  const mode = isTest === undefined ? sql`` : sql` and r.is_test = ${isTest}`;
  return sql`select r.${sql.raw(column)} from revocations r
    where r.account_id = ${accountId} and r.${sql.raw(column)} is not null and r.status in (${statuses})${mode}`;
}

/**
 * The ids of the account's verifications whose consent a later revocation revoked (in `isTest`'s mode, or both modes
 * when undefined), as a SELECT of `id`: the verifications of the revoked numbers and addresses, read from their
 * indexes, each then judged by the rule. A UNION: a verification named by both its number and its address is one row.
 */
export function revokedVerificationsSql(accountId: number, isTest: boolean | undefined): SQL {
  const mode = isTest === undefined ? sql`` : sql` and v.is_test = ${isTest}`;
  // "Some revocation of the number or the address since" is "one of the number since, or one of the address since":
  // each branch asks the rule about the key it was found by (the other key null), one index probe instead of two.
  const branch = (by: 'phone' | 'email') => {
    const column = by === 'phone' ? sql`v.cell_phone` : sql`v.email`;
    const judged = firstRevocationSince({
      accountId,
      isTest: sql`v.is_test`,
      phone: by === 'phone' ? column : sql`null`,
      email: by === 'email' ? column : sql`null`,
      since: sql`v.verified_at`,
    });
    return sql`select v.id from verifications v
      where v.account_id = ${accountId}${mode} and ${column} in (${revokingOf(accountId, isTest, by)})
        and exists (select 1 from ${judged} first)`;
  };
  return sql`${branch('phone')} union ${branch('email')}`;
}

/**
 * The log's `revoked` filter over `verifications`: `true`, the revoked ones, as an id list read first (the search's
 * way: the planner cannot know where the few matches lie in a sort's walk); `false`, every other row, a hashed
 * `NOT IN` checked on the sort index's entries (each ends with the id), so a deep page stays an index-only scan.
 */
export function revokedCondition(accountId: number, isTest: boolean | undefined, revoked: boolean): SQL {
  const ids = revokedVerificationsSql(accountId, isTest);
  return revoked ? sql`${verifications.id} = any(array(${ids}))` : sql`${verifications.id} not in (${ids})`;
}

/**
 * `LEFT JOIN <this> ON <revokedVerificationsJoinOn>` after `verifications`: the account's revoked verifications of the
 * mode (`revokedVerificationsSql`), each with its first revoking revocation (the whole rule again, number and address
 * together), under the alias `firstRevocationJoin` uses, so `revokedAtSql` reads either. For statements over most of
 * an account (the CSV's COPY): one small set, hashed, instead of two index probes per row.
 */
export function revokedVerificationsJoin(accountId: number, isTest: boolean | undefined): SQL {
  const first = firstRevocationSince({
    accountId,
    isTest: sql`rv.is_test`,
    phone: sql`rv.cell_phone`,
    email: sql`rv.email`,
    since: sql`rv.verified_at`,
  });
  return sql`(select rv.id as verification_id, first.id, first.received_at
    from verifications rv cross join lateral ${first} first
    where rv.id in (${revokedVerificationsSql(accountId, isTest)})) ${FIRST}`;
}

/** The join condition of `revokedVerificationsJoin`. */
export const revokedVerificationsJoinOn: SQL = sql`${FIRST}.verification_id = ${verifications.id}`;
