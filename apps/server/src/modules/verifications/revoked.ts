import { schema } from '@veriform/db';
import { and, eq, type SQL, sql } from 'drizzle-orm';

/**
 * A verification's revocation (issue #35) wherever the activity log shows one: the list's rows, the detail, the CSV,
 * the certificate's standing and the log's `revoked` filter. Which revocation revoked it is the rule of
 * modules/revocations/standing.ts, kept per verification in `revocation_marks` by modules/revocations/marks.ts in the
 * transaction that made a revocation revoking; here it is only read, by the verification's id (the table's key).
 * Reading the rule itself per row cost two index probes a row, and the filter judged every verification of every
 * revoked number: ~2 s at 100,000 revocations (docs/benchmarks.md, sessions 28 and 29).
 */

const { verifications, revocationMarks } = schema;

/** `LEFT JOIN <revocationMarks> ON <this>` after `verifications`: the row's revocation, or nulls. */
export const revocationMarkOn: SQL = sql`${revocationMarks.verificationId} = ${verifications.id}`;

/** The joined revocation's columns, for a select beside `leftJoin(revocationMarks, revocationMarkOn)`. */
export const revocationColumns = {
  revokedAt: revocationMarks.receivedAt,
  revocationId: revocationMarks.revocationId,
};

/**
 * The log's `revoked` filter over `verifications`: the account's marks of the view's mode (or both modes when it has
 * none) are few beside the account's rows; `true` reads them as an id list first (the planner cannot know where the few
 * matches lie in a sort's walk), `false` is a hashed `NOT IN` checked on the sort index's entries (each ends with the
 * id), so a deep page stays an index-only scan.
 */
export function revokedCondition(accountId: number, isTest: boolean | undefined, revoked: boolean): SQL {
  const marked = sql`select ${revocationMarks.verificationId} from ${revocationMarks} where ${and(
    eq(revocationMarks.accountId, accountId),
    isTest === undefined ? undefined : eq(revocationMarks.isTest, isTest),
  )}`;
  return revoked
    ? sql`${verifications.id} = any(array(${marked}))`
    : sql`${verifications.id} not in (${marked})`;
}
