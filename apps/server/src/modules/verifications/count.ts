import { type Db, schema } from '@veriform/db';
import { and, count, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { type ResolvedDateRange, rangeBounds, resolveDateRange } from '../../domain/date-range.ts';
import { type ModeFilter, type ResolvedForms, splitSearch, verificationWhere } from './filters.ts';

/**
 * The activity log's total (`count` of the list), exact, without counting a million rows (docs/decisions/0008).
 *
 * With a search (`q`) the rows that a phone or reference reading matches are few and counted as they are; the forms whose
 * name matches are a form filter (below). Without one, every filter left (forms, categories, methods, dates) is a column of `verification_daily_counts`,
 * which triggers keep per UTC day in the same transaction as the verifications. A local day starts at any instant of
 * a UTC day (Asia/Kolkata at 18:30Z, New York at 04:00Z or 05:00Z), so the range splits in three:
 *
 *     [start ────── first UTC midnight) [whole UTC days ……… last UTC midnight) [────── end)
 *      counted in `verifications`        summed from the daily counts          counted in `verifications`
 *
 * The two ends are less than a day each: an index range of the report index, read without the heap. A range inside
 * one UTC day is counted directly. Without dates at all (the log's default view) the sum is of
 * `verification_total_counts`, the same counts kept per key for all time: a row per form, category and method.
 *
 * The source (hosted page or API v1, issue #15) is not a column of the daily counts (yet): with a source filter the rows
 * are counted as they are, an index range of the account's dates with a look at each row. Fine for the accounts of
 * today; at a million rows it wants `source` in the daily counts (a migration), which the sums above would then use.
 *
 * Live or test (issue #33, ADR 29): the counts keep test verifications under a key of their own (`is_test`), so each
 * view sums its own; the rows at the ends are read with the same mode (`is_test` is in the report index).
 */

const { verifications, verificationDailyCounts, verificationTotalCounts } = schema;

/** The key columns the daily and the all-time counts share. */
type CountKeys = typeof verificationDailyCounts | typeof verificationTotalCounts;

/** The filters that the daily or all-time counts can answer, as in `verificationWhere` (the property test compares). */
function countKeysWhere(counts: CountKeys, accountId: number, filter: ModeFilter): SQL[] {
  const conditions: SQL[] = [eq(counts.accountId, accountId)];
  if (filter.mode) conditions.push(eq(counts.isTest, filter.mode === 'test'));
  if (filter.verifyFormId__in && filter.verifyFormId__in.length > 0)
    conditions.push(inArray(counts.verifyFormId, filter.verifyFormId__in));
  if (filter.verifyFormCategory__in && filter.verifyFormCategory__in.length > 0)
    conditions.push(inArray(counts.verifyFormCategory, filter.verifyFormCategory__in));
  const methods = filter.verificationMethod__in ?? [];
  if (methods.length > 0 && !methods.includes('all'))
    conditions.push(
      inArray(
        counts.verificationMethod,
        methods.filter((m): m is Exclude<typeof m, 'all'> => m !== 'all'),
      ),
    );
  return conditions;
}

export async function countVerifications(
  db: Db,
  accountId: number,
  filter: ModeFilter,
  now: Date,
  forms: ResolvedForms,
): Promise<number> {
  const countRows = async (where: SQL) => {
    const [row] = await db.select({ n: count() }).from(verifications).where(where);
    return row?.n ?? 0;
  };
  if (filter.revoked !== undefined) {
    // The revoked ones are few (their numbers' rows, read from the revocations side) and counted as they are; the
    // others are every row less those, so the rest of the total still comes from the counts (issue #35).
    const revoked = countRows(verificationWhere(accountId, { ...filter, revoked: true }, now, forms));
    if (filter.revoked) return revoked;
    const [all, less] = await Promise.all([
      countVerifications(db, accountId, { ...filter, revoked: undefined }, now, forms),
      revoked,
    ]);
    return all - less;
  }
  if (!filter.q?.trim()) return countWithoutSearch(db, accountId, filter, now);
  const split = splitSearch(filter, forms);
  if (!split) return countRows(verificationWhere(accountId, filter, now, forms));
  // As one OR it was a scan of the account (130–190 ms at 1M).
  const [byName, byOtherReadings] = await Promise.all([
    split.byName ? countWithoutSearch(db, accountId, split.byName, now) : 0,
    countRows(
      split.othersWhere((f) => verificationWhere(accountId, filter, now, f), verifications.verifyFormId),
    ),
  ]);
  return byName + byOtherReadings;
}

/**
 * The total without a search: one statement of up to three sums (countByDays). A bound's UTC midnights are SQL over
 * the same expression as the WHERE's (createdWithin), so PostgreSQL's zone rules decide both.
 */
async function countWithoutSearch(db: Db, accountId: number, filter: ModeFilter, now: Date): Promise<number> {
  if (filter.source) {
    const [row] = await db
      .select({ n: count() })
      .from(verifications)
      .where(verificationWhere(accountId, filter, now));
    return row?.n ?? 0;
  }
  const where = verificationWhere(accountId, filter, now);
  const range = resolveDateRange(filter, now);
  if (range.gte === null && range.lte === null) {
    const [row] = await db
      .select({ n: sql`coalesce(sum(${verificationTotalCounts.n}), 0)`.mapWith(Number) })
      .from(verificationTotalCounts)
      .where(and(...countKeysWhere(verificationTotalCounts, accountId, filter)));
    return row?.n ?? 0;
  }
  return countByDays(db, {
    counts: {
      table: verificationDailyCounts,
      day: verificationDailyCounts.day,
      n: verificationDailyCounts.n,
      where: countKeysWhere(verificationDailyCounts, accountId, filter),
    },
    rows: { table: verifications, createdAt: verifications.createdAt, where },
    range,
  });
}

/**
 * Rows matching `rows.where` inside `range`, from a table of per-UTC-day counts (`counts`, already filtered as the rows
 * are) for the whole UTC days and from the rows themselves for the partial days at either end (less than 24 hours
 * each), in one statement. `… at time zone 'UTC'` turns an instant into its UTC wall time and back. Shared by the
 * activity log (verification_daily_counts) and the attempts view (verification_attempt_daily_counts).
 */
export async function countByDays(
  db: Db,
  {
    counts,
    rows,
    range,
  }: {
    counts: { table: PgTable; day: AnyPgColumn; n: AnyPgColumn; where: SQL[] };
    rows: { table: PgTable; createdAt: AnyPgColumn; where: SQL };
    range: ResolvedDateRange;
  },
): Promise<number> {
  const rowCount = (...within: SQL[]) =>
    sql`(select count(*) from ${rows.table} where ${and(rows.where, ...within)})`;
  const { start, end } = rangeBounds(range);
  // The first UTC midnight at or after the start, and the last at or before the end (UTC wall times).
  const firstMidnight = start
    ? sql`(date_trunc('day', (${start} at time zone 'UTC') - interval '1 microsecond') + interval '1 day')`
    : null;
  const lastMidnight = end ? sql`date_trunc('day', ${end} at time zone 'UTC')` : null;
  const days = [...counts.where];
  if (firstMidnight) days.push(sql`${counts.day} >= ${firstMidnight}::date`);
  if (lastMidnight) days.push(sql`${counts.day} < ${lastMidnight}::date`);
  const total = [sql`coalesce(sum(${counts.n}), 0)`];
  // The WHERE already bounds both ends; a range inside one UTC day has an empty tail (it starts after the end).
  if (firstMidnight) total.push(rowCount(sql`${rows.createdAt} < (${firstMidnight} at time zone 'UTC')`));
  if (lastMidnight)
    total.push(
      rowCount(
        sql`${rows.createdAt} >= (${lastMidnight} at time zone 'UTC')`,
        ...(firstMidnight ? [sql`${rows.createdAt} >= (${firstMidnight} at time zone 'UTC')`] : []),
      ),
    );
  // An aggregate without GROUP BY answers one row even when no day matches.
  const [row] = await db
    .select({ n: sql.join(total, sql` + `).mapWith(Number) })
    .from(counts.table)
    .where(and(...days));
  return row?.n ?? 0;
}
