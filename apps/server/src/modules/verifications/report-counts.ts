import type { VerificationFilter } from '@veriform/contracts';
import { type Db, schema } from '@veriform/db';
import { and, count, inArray, type SQL, sql } from 'drizzle-orm';
import { type ResolvedForms, verificationWhere } from './filters.ts';
import {
  type Channel,
  channelOf,
  localDayStarts,
  needsRows,
  type ReportRange,
  rowsOf,
  rowsOfCutHours,
  summaryWhere,
  wholeHoursWithin,
  withinCutHour,
} from './report-hours.ts';

const { verifications, verificationHourlyCounts: hourly } = schema;

/** Verifications per local day of the range (`bucket` 1 is its first day) and method. */
export type DayAndMethod = { bucket: number; method: Channel; n: number };
/** Verifications per form and the category they were made under. */
export type FormAndCategory = { formId: number; category: string; n: number };

/**
 * The report's verification counts: per local day and method (the totals are its sums), and per (form, category)
 * pair (a handful per form, summed both ways by the caller). Without a search, one statement over the hourly summary
 * (ADR 28) and the rows of the hours a :30/:45 zone's midnight cuts; with one, two scans of the matching rows.
 *
 * A row finds its local day by a binary search among the day starts (width_bucket): half the cost of converting each
 * instant to a local date, and an hour of the summary finds its day the same way.
 */
export async function verificationReportCounts(
  db: Db,
  accountId: number,
  filter: VerificationFilter,
  range: ReportRange,
  now: Date,
  forms: ResolvedForms,
): Promise<{ byDayAndMethod: DayAndMethod[]; pairs: FormAndCategory[] }> {
  const where = verificationWhere(accountId, filter, now, forms);
  if (needsRows(filter)) return scanRows(db, where, range);

  const starts = localDayStarts(range);
  const answer = await db.execute(sql`
    select grouping(bucket, method) as per_form, bucket, method, form_id, category, sum(n)::int as n
    from (
      select width_bucket(${hourly.hour}, ${starts}) as bucket, ${hourly.verificationMethod} as method,
        ${hourly.verifyFormId} as form_id, ${hourly.verifyFormCategory} as category, ${hourly.n} as n
      from ${hourly}
      where ${and(...hourlyWhere(accountId, filter), ...wholeHoursWithin(hourly.hour, range))}
      union all
      ${rowsOfCutHours(
        range,
        sql`width_bucket(r.created_at, ${starts}), r.verification_method, r.verify_form_id, r.verify_form_category, 1`,
        sql`select ${verifications.createdAt}, ${verifications.verificationMethod}, ${verifications.verifyFormId},
          ${verifications.verifyFormCategory}
          from ${verifications} where ${where} and ${withinCutHour(verifications.createdAt)}`,
      )}
    ) as s
    group by grouping sets ((bucket, method), (form_id, category))`);
  const byDayAndMethod: DayAndMethod[] = [];
  const pairs: FormAndCategory[] = [];
  for (const row of rowsOf(answer)) {
    const n = Number(row.n);
    if (Number(row.per_form) === 0)
      byDayAndMethod.push({ bucket: Number(row.bucket), method: channelOf(row.method), n });
    else pairs.push({ formId: Number(row.form_id), category: String(row.category), n });
  }
  return { byDayAndMethod, pairs };
}

/** The filters the hourly summary answers, as `verificationWhere` applies them (the category recorded on the row). */
function hourlyWhere(accountId: number, filter: VerificationFilter): SQL[] {
  const columns = {
    accountId: hourly.accountId,
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
