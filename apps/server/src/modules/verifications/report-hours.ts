import type { VerificationFilter } from '@veriform/contracts';
import { eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { ResolvedForms } from './filters.ts';

/**
 * The report's ranges over the hourly summaries (issue #20, ADR 28). The summaries count rows per UTC hour; a local
 * day of a whole-hour zone (New York, Berlin, Tokyo, on either side of a DST change) starts at an hour's start, so its
 * days are whole hours. A local midnight of a :30 or :45 zone (India, Nepal, Newfoundland, Adelaide, Chatham) falls
 * inside an hour: that hour is "cut" and read from the rows, an index range of under an hour each.
 *
 *     [hours of day 1 ……… ) [cut hour: rows] [hours of day 2 ……… ) [cut hour: rows] …
 *
 * The zone's rules are PostgreSQL's, as everywhere else in the filters.
 */

export type ReportRange = { gte: string; lte: string; tz: string };

/** What the report's counts are of: the account's rows that match `filter` (its forms resolved) in `range`, at `now`. */
export type ReportScope = {
  accountId: number;
  filter: VerificationFilter;
  range: ReportRange;
  now: Date;
  forms: ResolvedForms;
};

/** The range's first instant (its first local midnight). */
function rangeStart(range: ReportRange): SQL {
  return sql`(${range.gte}::timestamp at time zone ${range.tz}::text)`;
}

/** The instant the range ends before (the local midnight after its last day). */
function rangeEnd(range: ReportRange): SQL {
  return sql`((${range.lte}::date + 1)::timestamp at time zone ${range.tz}::text)`;
}

/**
 * The range's totals (no split per local day) read from the coarsest summary each part allows:
 *
 *     S [minutes: rows) [whole hours: hourly) [whole UTC days: daily ……… ) [whole hours: hourly) [minutes: rows) E
 *
 * S and E are local midnights, so the minutes at either end are empty for a whole-hour zone, and under an hour each
 * for a :30/:45 zone. With no whole UTC day inside (a range under ~2 days), the whole hours are all of it.
 */
const firstWholeHour = (range: ReportRange) =>
  sql`date_trunc('hour', ${rangeStart(range)} + interval '1 hour' - interval '1 microsecond', 'UTC')`;
const endOfWholeHours = (range: ReportRange) => sql`date_trunc('hour', ${rangeEnd(range)}, 'UTC')`;
const firstWholeDay = (range: ReportRange) =>
  sql`date_trunc('day', ${rangeStart(range)} + interval '1 day' - interval '1 microsecond', 'UTC')`;
const endOfWholeDays = (range: ReportRange) => sql`date_trunc('day', ${rangeEnd(range)}, 'UTC')`;

/** A daily summary's UTC days that lie wholly inside the range. */
export function wholeDaysWithin(day: AnyPgColumn, range: ReportRange): SQL[] {
  return [
    sql`${day} >= (${firstWholeDay(range)} at time zone 'UTC')::date`,
    sql`${day} < (${endOfWholeDays(range)} at time zone 'UTC')::date`,
  ];
}

/** An hourly summary's whole hours inside the range but outside its whole UTC days (all of them if there are none). */
export function hoursAroundWholeDays(hour: AnyPgColumn, range: ReportRange): SQL[] {
  return [
    ...wholeHours(hour, range),
    sql`not (${hour} >= ${firstWholeDay(range)} and ${hour} < ${endOfWholeDays(range)})`,
  ];
}

/** An hourly summary's hours that lie wholly inside the range. */
export function wholeHours(hour: AnyPgColumn, range: ReportRange): SQL[] {
  return [sql`${hour} >= ${firstWholeHour(range)}`, sql`${hour} < ${endOfWholeHours(range)}`];
}

/** `created_at` in the minutes before the range's first whole hour or after its last (none for a whole-hour zone). */
export function minutesAtEnds(createdAt: AnyPgColumn, range: ReportRange): SQL {
  return sql`((${createdAt} >= ${rangeStart(range)} and ${createdAt} < ${firstWholeHour(range)})
    or (${createdAt} >= ${endOfWholeHours(range)} and ${createdAt} < ${rangeEnd(range)}))`;
}

/** The instants where each local day of the range starts, and where the day after the last starts (N + 1). */
export function localDayStarts(range: ReportRange): SQL {
  return sql`array(select d at time zone ${range.tz}::text from generate_series(${range.gte}::timestamp, (${range.lte}::date + 1)::timestamp, interval '1 day') as d)`;
}

/** The UTC hours a local midnight of the range falls inside (none for a whole-hour zone). */
export function cutHours(range: ReportRange): SQL {
  return sql`array(select distinct date_trunc('hour', x, 'UTC') from unnest(${localDayStarts(range)}) as x where date_trunc('hour', x, 'UTC') <> x)`;
}

/** A summary's hours inside the range that no local midnight cuts. */
export function wholeHoursWithin(hour: AnyPgColumn, range: ReportRange): SQL[] {
  return [
    sql`${hour} >= ${rangeStart(range)}`,
    sql`${hour} < ${rangeEnd(range)}`,
    sql`${hour} <> all(${cutHours(range)})`,
  ];
}

/**
 * `select … from unnest(cut hours) … lateral (rows of that hour)`: the rows of the cut hours, each hour its own index
 * range (a lateral join is a nested loop by construction: no plan reads the whole range). `rows` is a full SELECT whose
 * WHERE may use `cut.h`, the hour's start.
 */
export function rowsOfCutHours(range: ReportRange, columns: SQL, rows: SQL): SQL {
  // OFFSET 0 keeps the subquery from being pulled up into a plain join, which the planner may then run as a hash join
  // over every row of the range.
  return sql`select ${columns} from unnest(${cutHours(range)}) as cut(h) cross join lateral (${rows} offset 0) as r`;
}

/** `created_at` inside the cut hour `cut.h` of rowsOfCutHours. */
export function withinCutHour(createdAt: AnyPgColumn): SQL {
  return sql`${createdAt} >= cut.h and ${createdAt} < cut.h + interval '1 hour'`;
}

/** Filters the summaries cannot answer: a search's rows are a few, or a form's, and are read as they are. */
export function needsRows(filter: Pick<VerificationFilter, 'q'>): boolean {
  return Boolean(filter.q?.trim());
}

/** How a code or verification went out, as the summaries and rows record it. */
export type Channel = 'sms' | 'email';

/** A channel read back from a raw statement's row (checked: the column is an enum, but the driver answers text). */
export function channelOf(value: unknown): Channel {
  if (value === 'sms' || value === 'email') return value;
  throw new Error(`unexpected channel ${String(value)}`);
}

/**
 * The columns of a summary that the filters name (each summary calls the method its own way). A summary without a
 * source (verification_daily_counts) is read only when the filter names none.
 */
export type SummaryColumns = {
  accountId: AnyPgColumn;
  isTest: AnyPgColumn;
  verifyFormId: AnyPgColumn;
  method: AnyPgColumn;
  source: AnyPgColumn | null;
};

/** The channels a filter keeps, or null for both (none named, or `all`). */
export function channelsOf(filter: VerificationFilter): Channel[] | null {
  const named = filter.verificationMethod__in ?? [];
  const methods = named.filter((m): m is Channel => m !== 'all');
  return methods.length > 0 && !named.includes('all') ? methods : null;
}

/**
 * The filters a summary answers, as the rows' own `where` applies them. `byCategory` is how this summary reads a
 * category filter: the category recorded on the verification, or an attempt's form's category of today.
 */
export function summaryWhere(
  accountId: number,
  filter: VerificationFilter,
  columns: SummaryColumns,
  byCategory: (categories: string[]) => SQL,
): SQL[] {
  // The report is of live data (issue #33): the summaries count test rows under their own key (ADR 29).
  const conditions: SQL[] = [eq(columns.accountId, accountId), eq(columns.isTest, false)];
  if (filter.verifyFormId__in && filter.verifyFormId__in.length > 0)
    conditions.push(inArray(columns.verifyFormId, filter.verifyFormId__in));
  if (filter.verifyFormCategory__in && filter.verifyFormCategory__in.length > 0)
    conditions.push(byCategory(filter.verifyFormCategory__in));
  const methods = channelsOf(filter);
  if (methods) conditions.push(inArray(columns.method, methods));
  if (filter.source) {
    if (!columns.source) throw new Error('this summary has no source: read one that has');
    conditions.push(eq(columns.source, filter.source));
  }
  return conditions;
}
