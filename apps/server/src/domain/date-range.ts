import { FALLBACK_TIME_ZONE, localDateRange, localToday, type VerificationFilter } from '@veriform/contracts';
import { type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/**
 * Date ranges of the lists, exports and reports (the activity log's, the attempts', the audit log's): the local days a
 * filter's preset or custom ends mean in its time zone, and those days as instants in SQL. `now` is passed in (the
 * app's clock), never read here, so tests pin it.
 */

export type ResolvedDateRange = { gte: string | null; lte: string | null; tz: string };

/** The inclusive local days of the filter's preset (or custom ends) in its zone, today being `now` there. */
export function resolveDateRange(
  filter: Pick<
    VerificationFilter,
    'created__date__preset' | 'created__date__gte' | 'created__date__lte' | 'tz'
  >,
  now: Date,
): ResolvedDateRange {
  const tz = filter.tz ?? FALLBACK_TIME_ZONE;
  const range = localDateRange(filter.created__date__preset, localToday(now, tz), {
    gte: filter.created__date__gte,
    lte: filter.created__date__lte,
  });
  return { ...range, tz };
}

/** The longest report: a year and a day, so a leap year fits; its per-day series stays a few hundred points. */
export const REPORT_MAX_DAYS = 366;
/** A custom report range with no start covers this many days up to its end (as the last30d preset). */
export const REPORT_DEFAULT_DAYS = 30;

/** `YYYY-MM-DD` + n days, in calendar arithmetic (no time zone involved). */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/**
 * The report's range is always bounded, as its per-day series lists every day. last7d and last30d as everywhere; a
 * custom range without an end ends today (local), without a start starts REPORT_DEFAULT_DAYS − 1 days before its end;
 * reversed ends are swapped; a range longer than REPORT_MAX_DAYS keeps its end and starts REPORT_MAX_DAYS − 1 days
 * before. The response echoes the range it used, so the page can show it.
 */
export function resolveReportRange(
  filter: Pick<
    VerificationFilter,
    'created__date__preset' | 'created__date__gte' | 'created__date__lte' | 'tz'
  >,
  now: Date,
): { gte: string; lte: string; tz: string } {
  const resolved = resolveDateRange(filter, now);
  let lte = resolved.lte ?? localToday(now, resolved.tz);
  let gte = resolved.gte ?? addDays(lte, -(REPORT_DEFAULT_DAYS - 1));
  if (gte > lte) [gte, lte] = [lte, gte];
  const earliest = addDays(lte, -(REPORT_MAX_DAYS - 1));
  if (gte < earliest) gte = earliest;
  return { gte, lte, tz: resolved.tz };
}

/**
 * Local days → instants, in SQL like the forms list: a daylight-saving day is 23 or 25 hours, as people live it. The
 * column stays bare, so the (account_id, created_at) indexes serve the range.
 */
export function createdWithin(column: AnyPgColumn, range: ResolvedDateRange): SQL[] {
  const { start, end } = rangeBounds(range);
  const conditions: SQL[] = [];
  if (start) conditions.push(sql`${column} >= ${start}`);
  if (end) conditions.push(sql`${column} < ${end}`);
  return conditions;
}

/** The instants (timestamptz SQL) where the range's first local day starts and the day after its last one starts. */
export function rangeBounds(range: ResolvedDateRange): { start: SQL | null; end: SQL | null } {
  return {
    start: range.gte ? sql`(${range.gte}::timestamp AT TIME ZONE ${range.tz}::text)` : null,
    end: range.lte ? sql`((${range.lte}::date + 1)::timestamp AT TIME ZONE ${range.tz}::text)` : null,
  };
}
