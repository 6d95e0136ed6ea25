import {
  FALLBACK_TIME_ZONE,
  localDateRange,
  localToday,
  type VerificationFilter,
  type VerificationSort,
} from '@veriform/contracts';
import { schema } from '@veriform/db';
import { and, asc, desc, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { escapeLike } from '../verify-forms/service.ts';

/**
 * The SQL of the activity log's filters and sorts (SPEC §2 /activity-log/), shared by the list, the report and the CSV
 * export, so the three always agree on which rows a link means:
 *
 * - `verificationWhere(accountId, filter, now)`: the WHERE over `verifications` (account first, then each filter).
 * - `verificationOrderBy(o)`: the ORDER BY, always ending with the id so pages never overlap.
 * - `attemptWhere(accountId, filter, now)`: the same filters over `verification_attempts` (the report's funnel).
 * - `resolveDateRange(filter, now)`: the local days and zone a preset means (the report echoes them).
 *
 * `now` is passed in (the app's clock), never read here, so tests pin it.
 *
 * Search `q` (OR of every reading that applies):
 * - a valid phone number in any common format (libphonenumber-js, default US) → `cell_phone = E.164`;
 * - otherwise, if it is only phone characters with at least 4 digits → the digits begin the national number (US) or the
 *   number with its country code, or end the number ("0142"). Both are btree prefix ranges (the second on
 *   `reverse(cell_phone)`), which indexes serve; a contains-match would need pg_trgm, which the embedded PGlite does not
 *   load;
 * - the external reference, case-insensitively, exactly or as a prefix;
 * - the account's forms whose current name contains `q` (case-insensitive), as `verify_form_id = ANY(ARRAY(…))`: an
 *   uncorrelated sub-select becomes one InitPlan, and the array it yields can drive an index like a literal list.
 */

const { verifications, verificationAttempts, verifyForms } = schema;

/** The columns a filter reads; verifications and attempts name some differently and only one has a category. */
type FilterColumns = {
  accountId: AnyPgColumn;
  verifyFormId: AnyPgColumn;
  cellPhone: AnyPgColumn;
  externalRefId: AnyPgColumn;
  method: AnyPgColumn;
  createdAt: AnyPgColumn;
  /** The category copied onto the row; without one, the form's current category. */
  category: AnyPgColumn | null;
};

const verificationColumns: FilterColumns = {
  accountId: verifications.accountId,
  verifyFormId: verifications.verifyFormId,
  cellPhone: verifications.cellPhone,
  externalRefId: verifications.externalRefId,
  method: verifications.verificationMethod,
  createdAt: verifications.createdAt,
  category: verifications.verifyFormCategory,
};

const attemptColumns: FilterColumns = {
  accountId: verificationAttempts.accountId,
  verifyFormId: verificationAttempts.verifyFormId,
  cellPhone: verificationAttempts.cellPhone,
  externalRefId: verificationAttempts.externalRefId,
  method: verificationAttempts.method,
  createdAt: verificationAttempts.createdAt,
  category: null,
};

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

/**
 * Local days → instants, in SQL like the forms list: a daylight-saving day is 23 or 25 hours, as people live it. The
 * column stays bare, so the (account_id, created_at) indexes serve the range.
 */
export function createdWithin(column: AnyPgColumn, range: ResolvedDateRange): SQL[] {
  const conditions: SQL[] = [];
  if (range.gte) conditions.push(sql`${column} >= (${range.gte}::timestamp AT TIME ZONE ${range.tz}::text)`);
  if (range.lte)
    conditions.push(sql`${column} < ((${range.lte}::date + 1)::timestamp AT TIME ZONE ${range.tz}::text)`);
  return conditions;
}

/** Characters people type around phone digits. */
const PHONE_TEXT = /^[\d\s().+\-/]+$/;
export const MIN_PHONE_DIGITS = 4;

/** What `q` can mean; exported for tests and for a UI hint one day. */
export function readSearch(q: string): { e164: string | null; digits: string | null; text: string } {
  const text = q.trim();
  const number = parsePhoneNumberFromString(text, 'US');
  const e164 = number?.isValid() ? number.number : null;
  const digits = text.replace(/\D/g, '');
  const phoneLike = e164 === null && PHONE_TEXT.test(text) && digits.length >= MIN_PHONE_DIGITS;
  return { e164, digits: phoneLike ? digits : null, text };
}

function searchCondition(accountId: number, q: string, columns: FilterColumns): SQL | undefined {
  const { e164, digits, text } = readSearch(q);
  if (text === '') return undefined;
  const readings: SQL[] = [];
  if (e164) readings.push(eq(columns.cellPhone, e164));
  if (digits) {
    // `+1` + digits: a US national number's beginning; `+` + digits: typed with its country code.
    readings.push(sql`${columns.cellPhone} like ${`+1${digits}%`}`);
    if (!digits.startsWith('1')) readings.push(sql`${columns.cellPhone} like ${`+${digits}%`}`);
    readings.push(sql`reverse(${columns.cellPhone}) like ${`${[...digits].reverse().join('')}%`}`);
  }
  readings.push(sql`lower(${columns.externalRefId}) like ${`${escapeLike(text.toLowerCase())}%`}`);
  readings.push(
    sql`${columns.verifyFormId} = any(array(select ${verifyForms.id} from ${verifyForms} where ${verifyForms.accountId} = ${accountId} and ${verifyForms.name} ilike ${`%${escapeLike(text)}%`}))`,
  );
  return or(...readings);
}

function filterWhere(accountId: number, filter: VerificationFilter, now: Date, columns: FilterColumns): SQL {
  // The account always comes first: another account's form id in verifyFormId__in then simply matches nothing.
  const conditions: (SQL | undefined)[] = [eq(columns.accountId, accountId)];
  if (filter.verifyFormId__in && filter.verifyFormId__in.length > 0)
    conditions.push(inArray(columns.verifyFormId, filter.verifyFormId__in));
  if (filter.verifyFormCategory__in && filter.verifyFormCategory__in.length > 0) {
    const categories = filter.verifyFormCategory__in;
    conditions.push(
      columns.category
        ? inArray(columns.category, categories)
        : sql`${columns.verifyFormId} = any(array(select ${verifyForms.id} from ${verifyForms} where ${verifyForms.accountId} = ${accountId} and ${inArray(verifyForms.category, categories)}))`,
    );
  }
  const methods = filter.verificationMethod__in ?? [];
  // `all` (or nothing) means every method.
  if (methods.length > 0 && !methods.includes('all')) conditions.push(inArray(columns.method, methods));
  conditions.push(...createdWithin(columns.createdAt, resolveDateRange(filter, now)));
  if (filter.q) conditions.push(searchCondition(accountId, filter.q, columns));
  const where = and(...conditions);
  if (!where) throw new Error('unreachable: the account condition is always there');
  return where;
}

/** The WHERE over `verifications` for the filters of the log, the report and the export. */
export function verificationWhere(accountId: number, filter: VerificationFilter, now: Date): SQL {
  return filterWhere(accountId, filter, now, verificationColumns);
}

/**
 * The same filters over `verification_attempts` (codes sent). Categories go through the form's CURRENT category
 * (attempts keep no copy); the verifications keep the category they were made under.
 */
export function attemptWhere(accountId: number, filter: VerificationFilter, now: Date): SQL {
  return filterWhere(accountId, filter, now, attemptColumns);
}

const sortColumns = {
  cellPhone: verifications.cellPhone,
  externalRefId: verifications.externalRefId,
  verifyFormId: verifications.verifyFormId,
  verifyFormName: verifications.verifyFormName,
  verifyFormCategory: verifications.verifyFormCategory,
  created: verifications.createdAt,
} as const;

/**
 * ORDER BY for a sort of the contract (unknown ones already fell back to -created in the schema). The id follows the
 * key's direction: a unique, total order, so offset pages never overlap or skip, and each (account_id, key, id) index
 * serves both directions by scanning it forwards or backwards.
 */
export function verificationOrderBy(o: VerificationSort): SQL[] {
  const descending = o.startsWith('-');
  const key = (descending ? o.slice(1) : o) as keyof typeof sortColumns;
  const direction = descending ? desc : asc;
  return [direction(sortColumns[key]), direction(verifications.id)];
}
