import type { VerificationFilter } from '@veriform/contracts';
import { type Db, schema } from '@veriform/db';
import { and, count, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { rowsOf } from '../../lib/rows.ts';
import { splitSearch, verificationWhere } from './filters.ts';
import {
  type Channel,
  channelOf,
  channelsOf,
  hoursAroundWholeDays,
  localDayStarts,
  minutesAtEnds,
  needsRows,
  type ReportRange,
  type ReportScope,
  rowsOfCutHours,
  summaryWhere,
  wholeDaysWithin,
  wholeHours,
  wholeHoursWithin,
  withinCutHour,
} from './report-hours.ts';

const {
  verifications,
  verificationHourlyCounts: hourly,
  verificationHourlyMethodCounts: byMethod,
  verificationDailyCounts: daily,
} = schema;

/** Verifications per local day of the range (`bucket` 1 is its first day) and method. */
export type DayAndMethod = { bucket: number; method: Channel; n: number };
/** Verifications per form and the category they were made under. */
export type FormAndCategory = { formId: number; category: string; n: number };

/**
 * The report's verification counts: per local day and method (the totals are its sums), and per (form, category)
 * pair (a handful per form, summed both ways by the caller). Without a search, two statements over summaries (ADR 28):
 * - the series from the hourly summaries (per hour and method only when no form, category or source is filtered),
 *   and the rows of the hours a :30/:45 zone's midnight cuts;
 * - the pairs from the daily counts for the range's whole UTC days, the hourly summary around them and the rows of
 *   the minutes at either end (report-hours.ts).
 * With a search, two scans of the matching rows; when it names forms, those forms' rows are read as a form filter
 * (summaries) and only its other readings from the rows outside them (splitSearch).
 *
 * Live data only (issue #33, ADR 29): the summaries count test rows under a key of their own (`is_test`), so the
 * report reads the live summaries and the live rows beside them (`is_test` is in the report index too: the rows at
 * the ends stay an index-only scan). A scan (a search) reads the live rows directly.
 *
 * A row finds its local day by a binary search among the day starts (width_bucket): half the cost of converting each
 * instant to a local date, and an hour of the summary finds its day the same way.
 */
export async function verificationReportCounts(
  db: Db,
  scope: ReportScope,
): Promise<{ byDayAndMethod: DayAndMethod[]; pairs: FormAndCategory[] }> {
  const { accountId, filter, range, now, forms } = scope;
  if (needsRows(filter)) {
    // The rows read as they are: the live ones only (the log's live view, issue #33).
    const live = { ...filter, mode: 'live' as const };
    const split = splitSearch(filter, forms);
    if (!split) return scanRows(db, verificationWhere(accountId, live, now, forms), range);
    const [byName, byOthers] = await Promise.all([
      split.byName
        ? verificationReportCounts(db, { ...scope, filter: split.byName })
        : { byDayAndMethod: [], pairs: [] },
      scanRows(
        db,
        split.othersWhere((f) => verificationWhere(accountId, live, now, f), verifications.verifyFormId),
        range,
      ),
    ]);
    return {
      byDayAndMethod: [...byName.byDayAndMethod, ...byOthers.byDayAndMethod],
      pairs: [...byName.pairs, ...byOthers.pairs],
    };
  }
  // The live summaries, and the live rows read beside them.
  const where = verificationWhere(accountId, { ...filter, mode: 'live' }, now, forms);

  const starts = localDayStarts(range);
  const [series, pairs] = await Promise.all([
    db.execute(sql`
      select bucket, method, sum(n)::int as n
      from (
        ${seriesHours(accountId, filter, range, starts)}
        union all
        ${rowsOfCutHours(
          range,
          sql`width_bucket(r.created_at, ${starts}), r.verification_method, 1`,
          sql`select ${verifications.createdAt}, ${verifications.verificationMethod}
            from ${verifications} where ${where} and ${withinCutHour(verifications.createdAt)}`,
        )}
      ) as s (bucket, method, n)
      group by bucket, method
      having sum(n) <> 0`),
    db.execute(sql`
      select form_id, category, sum(n)::int as n
      from (
        ${pairsOfDaysAndHours(accountId, filter, range)}
        union all
        select ${verifications.verifyFormId}, ${verifications.verifyFormCategory}, 1
        from ${verifications} where ${where} and ${minutesAtEnds(verifications.createdAt, range)}
      ) as s (form_id, category, n)
      group by form_id, category
      having sum(n) <> 0`),
  ]);
  return {
    byDayAndMethod: rowsOf(series).map((row) => ({
      bucket: Number(row.bucket),
      method: channelOf(row.method),
      n: Number(row.n),
    })),
    pairs: rowsOf(pairs).map((row) => ({
      formId: Number(row.form_id),
      category: String(row.category),
      n: Number(row.n),
    })),
  };
}

/**
 * `(bucket, method, n)` of the summary hours of the series: per hour and method when the filter names nothing but
 * methods, ≤ 48 rows a day whatever the forms; else per form, category and source as well.
 */
function seriesHours(accountId: number, filter: VerificationFilter, range: ReportRange, starts: SQL): SQL {
  const byMethodOnly =
    !filter.verifyFormId__in?.length && !filter.verifyFormCategory__in?.length && !filter.source;
  if (byMethodOnly) {
    const m = byMethod;
    const methods = channelsOf(filter);
    const conditions = [eq(m.accountId, accountId), eq(m.isTest, false), ...wholeHoursWithin(m.hour, range)];
    if (methods) conditions.push(inArray(m.verificationMethod, methods));
    return sql`select width_bucket(${m.hour}, ${starts}), ${m.verificationMethod}, ${m.n}
      from ${m} where ${and(...conditions)}`;
  }
  return sql`select width_bucket(${hourly.hour}, ${starts}), ${hourly.verificationMethod}, ${hourly.n}
    from ${hourly} where ${and(...hourlyWhere(accountId, filter), ...wholeHoursWithin(hourly.hour, range))}`;
}

/**
 * `(form, category, n)` of the summaries of the range's whole hours: the daily counts for its whole UTC days and the
 * hourly summary around them, or the hourly summary alone when a source is filtered (the daily counts have none).
 */
function pairsOfDaysAndHours(accountId: number, filter: VerificationFilter, range: ReportRange): SQL {
  const hours = (
    conditions: SQL[],
  ) => sql`select ${hourly.verifyFormId}, ${hourly.verifyFormCategory}, ${hourly.n}
    from ${hourly} where ${and(...hourlyWhere(accountId, filter), ...conditions)}`;
  if (filter.source) return hours(wholeHours(hourly.hour, range));
  const days = summaryWhere(
    accountId,
    filter,
    {
      accountId: daily.accountId,
      isTest: daily.isTest,
      verifyFormId: daily.verifyFormId,
      method: daily.verificationMethod,
      source: null,
    },
    (categories) => inArray(daily.verifyFormCategory, categories),
  );
  return sql`select ${daily.verifyFormId}, ${daily.verifyFormCategory}, ${daily.n}
    from ${daily} where ${and(...days, ...wholeDaysWithin(daily.day, range))}
    union all
    ${hours(hoursAroundWholeDays(hourly.hour, range))}`;
}

/** The filters the hourly summary answers, as `verificationWhere` applies them (the category recorded on the row). */
function hourlyWhere(accountId: number, filter: VerificationFilter): SQL[] {
  const columns = {
    accountId: hourly.accountId,
    isTest: hourly.isTest,
    verifyFormId: hourly.verifyFormId,
    method: hourly.verificationMethod,
    source: hourly.source,
  };
  return summaryWhere(accountId, filter, columns, (categories) =>
    inArray(hourly.verifyFormCategory, categories),
  );
}

/** A search's rows, read as they are: two scans of the matching rows (an index range of a few rows, or a form's). */
async function scanRows(db: Db, where: SQL, range: ReportRange) {
  const bucket = sql<number>`width_bucket(${verifications.createdAt}, ${localDayStarts(range)})`.mapWith(
    Number,
  );
  const [byDayAndMethod, pairs] = await Promise.all([
    db
      .select({ bucket, method: verifications.verificationMethod, n: count() })
      .from(verifications)
      .where(where)
      .groupBy(sql`1`, verifications.verificationMethod),
    db
      .select({ formId: verifications.verifyFormId, category: verifications.verifyFormCategory, n: count() })
      .from(verifications)
      .where(where)
      .groupBy(verifications.verifyFormId, verifications.verifyFormCategory),
  ]);
  return { byDayAndMethod, pairs };
}
