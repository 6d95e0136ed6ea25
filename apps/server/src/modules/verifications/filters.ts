import type { VerificationFilter, VerificationMode, VerificationSort } from '@veriform/contracts';
import { type Db, schema } from '@veriform/db';
import { and, asc, desc, eq, ilike, inArray, notInArray, or, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { createdWithin, resolveDateRange } from '../../domain/date-range.ts';
import { e164Of, PHONE_TEXT } from '../../domain/phone.ts';
import { escapeLike } from '../verify-forms/index.ts';
import { revokedCondition } from './revoked.ts';

/**
 * The SQL of the activity log's filters and sorts (SPEC §2 /activity-log/), shared by the list, the report and the CSV
 * export, so the three always agree on which rows a link means:
 *
 * - `verificationWhere(accountId, filter, now, forms?)`: the WHERE over `verifications` (account first, then each
 *   filter); `forms` from `resolveForms`.
 * - `verificationOrderBy(o)`: the ORDER BY, always ending with the id so pages never overlap.
 * - `attemptWhere(accountId, filter, now, forms?)`: the same filters over `verification_attempts` (the report's funnel).
 * - `resolveForms(db, accountId, filter)`: the form ids `q` (by name) and categories mean, read first (see there).
 * - the date range (`resolveDateRange`, `createdWithin`) is domain/date-range.ts's, shared with the audit log.
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
 * - the account's forms whose current name contains `q` (case-insensitive), resolved to ids first (resolveForms), so
 *   each reading is an index range and PostgreSQL ORs them (BitmapOr) instead of scanning the account.
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
  /** The hosted page or API v1: the attempt's, copied onto its verification. */
  source: AnyPgColumn;
  /** The category copied onto the row; without one, the form's current category. */
  category: AnyPgColumn | null;
  /** Made for a test number: a test object (issue #33, ADR 29). */
  isTest: AnyPgColumn;
  /**
   * The table and its id when every phone and reference reading of a search has an index of its own
   * (verifications): a search by a number then takes its rows from those indexes first (searchCondition).
   */
  searchedById: { table: PgTable; id: AnyPgColumn } | null;
};

/**
 * A filter with the log's mode (issue #33): `live` or `test` objects only; none: every row. The report is live data:
 * it reads the live summaries and rows (report-counts.ts, funnel.ts).
 */
export type ModeFilter = VerificationFilter & {
  mode?: VerificationMode | undefined;
  /** The log's and the export's revoked filter (issue #35; revoked.ts): verifications only, never attempts. */
  revoked?: boolean | undefined;
};

const verificationColumns: FilterColumns = {
  accountId: verifications.accountId,
  verifyFormId: verifications.verifyFormId,
  cellPhone: verifications.cellPhone,
  externalRefId: verifications.externalRefId,
  method: verifications.verificationMethod,
  createdAt: verifications.createdAt,
  source: verifications.source,
  category: verifications.verifyFormCategory,
  isTest: verifications.isTest,
  searchedById: { table: verifications, id: verifications.id },
};

const attemptColumns: FilterColumns = {
  accountId: verificationAttempts.accountId,
  verifyFormId: verificationAttempts.verifyFormId,
  cellPhone: verificationAttempts.cellPhone,
  externalRefId: verificationAttempts.externalRefId,
  method: verificationAttempts.method,
  createdAt: verificationAttempts.createdAt,
  source: verificationAttempts.source,
  category: null,
  isTest: verificationAttempts.isTest,
  // Attempts have no account-wide phone index: their readings filter the rows the other conditions find.
  searchedById: null,
};

export const MIN_PHONE_DIGITS = 4;

/** What `q` can mean; exported for tests and for a UI hint one day. */
export function readSearch(q: string): { e164: string | null; digits: string | null; text: string } {
  const text = q.trim();
  const e164 = e164Of(text);
  const digits = text.replace(/\D/g, '');
  const phoneLike = e164 === null && PHONE_TEXT.test(text) && digits.length >= MIN_PHONE_DIGITS;
  return { e164, digits: phoneLike ? digits : null, text };
}

/**
 * Form ids that some filters mean, read from the small `verify_forms` table before the big query: the forms whose
 * name contains `q`, and (for attempts, which keep no category) the forms of the chosen categories. As literal lists
 * the planner estimates them from the column's statistics; as a sub-select it must guess, and with a dozen forms per
 * account it guesses "most rows" and scans the whole account (measured: 0.7-1 s at 1M rows instead of a few ms).
 */
export type ResolvedForms = { matchingQ?: number[]; inCategories?: number[] };

/** One short query per filter that needs it (none without `q` or categories). */
export async function resolveForms(
  db: Db,
  accountId: number,
  filter: VerificationFilter,
): Promise<ResolvedForms> {
  const resolved: ResolvedForms = {};
  const text = filter.q?.trim();
  if (text) {
    const rows = await db
      .select({ id: verifyForms.id })
      .from(verifyForms)
      .where(and(eq(verifyForms.accountId, accountId), ilike(verifyForms.name, `%${escapeLike(text)}%`)));
    resolved.matchingQ = rows.map((r) => r.id);
  }
  if (filter.verifyFormCategory__in && filter.verifyFormCategory__in.length > 0) {
    const rows = await db
      .select({ id: verifyForms.id })
      .from(verifyForms)
      .where(
        and(
          eq(verifyForms.accountId, accountId),
          inArray(verifyForms.category, filter.verifyFormCategory__in),
        ),
      );
    resolved.inCategories = rows.map((r) => r.id);
  }
  return resolved;
}

/**
 * A search that names forms, split in two parts that no row is in twice (the count, the report and its funnel all
 * read it so): the named forms' rows are a form filter, which the summaries answer, and the search's other readings
 * (a phone, a reference) apply to the rows outside those forms. As one OR it was a scan of every row of the named
 * forms. Null when the search names no form (its rows are a few, read as they are).
 */
export function splitSearch<F extends VerificationFilter>(
  filter: F,
  forms: ResolvedForms,
): {
  byName: F | null;
  /** The WHERE of the other readings: `whereOf` built without the form-name reading, outside the named forms. */
  othersWhere: (whereOf: (forms: ResolvedForms) => SQL, formColumn: AnyPgColumn) => SQL;
} | null {
  const named = filter.q?.trim() ? (forms.matchingQ ?? []) : [];
  if (named.length === 0) return null;
  const chosen = filter.verifyFormId__in ?? [];
  const formsNamed = chosen.length > 0 ? named.filter((id) => chosen.includes(id)) : named;
  return {
    byName: formsNamed.length > 0 ? { ...filter, q: undefined, verifyFormId__in: formsNamed } : null,
    // With no form matching, the search's form-name reading drops out (searchCondition).
    othersWhere: (whereOf, formColumn) =>
      sql`(${whereOf({ ...forms, matchingQ: [] })}) and ${notInArray(formColumn, named)}`,
  };
}

/** `verify_form_id` among the given ids (resolved), or among the account's forms that the sub-select finds. */
function formIdIn(
  column: AnyPgColumn,
  resolved: number[] | undefined,
  accountId: number,
  condition: SQL,
): SQL {
  if (resolved) return resolved.length > 0 ? inArray(column, resolved) : sql`false`;
  return sql`${column} = any(array(select ${verifyForms.id} from ${verifyForms} where ${verifyForms.accountId} = ${accountId} and ${condition}))`;
}

function searchCondition(
  accountId: number,
  q: string,
  columns: FilterColumns,
  forms: ResolvedForms,
  /** The view's live or test condition, applied where the matches are read. */
  mode: SQL | undefined,
): SQL | undefined {
  const { e164, digits, text } = readSearch(q);
  if (text === '') return undefined;
  const rowReadings: SQL[] = [];
  if (e164) rowReadings.push(eq(columns.cellPhone, e164));
  if (digits) {
    // `+1` + digits: a US national number's beginning; `+` + digits: typed with its country code.
    rowReadings.push(sql`${columns.cellPhone} like ${`+1${digits}%`}`);
    if (!digits.startsWith('1')) rowReadings.push(sql`${columns.cellPhone} like ${`+${digits}%`}`);
    rowReadings.push(sql`reverse(${columns.cellPhone}) like ${`${[...digits].reverse().join('')}%`}`);
  }
  rowReadings.push(sql`lower(${columns.externalRefId}) like ${`${escapeLike(text.toLowerCase())}%`}`);
  // A number's readings are narrow (a digit run at either end, an exact number) and indexed, but where their few
  // matches lie in the account is unknown to the planner: with ORDER BY … LIMIT it walks the sort index from the top
  // and tests every row until ten match. When the matches are not where it assumed (a test number's rows in the live
  // view, a typo matching nothing), that walk is the whole account (300,000 rows: 75–500 ms; from the indexes: 2 ms).
  // So a search by a number reads its matches' ids from those indexes first, as one array, and pages through them.
  const byRow = or(...rowReadings);
  const byNumber = columns.searchedById && (e164 || digits) ? columns.searchedById : null;
  const readings: (SQL | undefined)[] = [
    byNumber
      ? sql`${byNumber.id} = any(array(select ${byNumber.id} from ${byNumber.table} where ${and(eq(columns.accountId, accountId), mode, byRow)}))`
      : byRow,
  ];
  // No form matches (the usual case for a phone or a reference): the reading simply drops out.
  if (!forms.matchingQ || forms.matchingQ.length > 0)
    readings.push(
      formIdIn(
        columns.verifyFormId,
        forms.matchingQ,
        accountId,
        ilike(verifyForms.name, `%${escapeLike(text)}%`),
      ),
    );
  return or(...readings);
}

function filterWhere(
  accountId: number,
  filter: ModeFilter,
  now: Date,
  columns: FilterColumns,
  forms: ResolvedForms,
): SQL {
  // The account always comes first: another account's form id in verifyFormId__in then simply matches nothing.
  const conditions: (SQL | undefined)[] = [eq(columns.accountId, accountId)];
  // Live or test objects (issue #33, ADR 29). The test view reads its own small partial index (migration 0033). The
  // sort indexes and the report indexes end with `is_test` (migration 0037), so the live view's condition is checked
  // on the index entry and a deep page stays an index-only scan (ADR 8, 27), whatever the number of test rows.
  const mode = filter.mode ? eq(columns.isTest, filter.mode === 'test') : undefined;
  conditions.push(mode);
  if (filter.verifyFormId__in && filter.verifyFormId__in.length > 0)
    conditions.push(inArray(columns.verifyFormId, filter.verifyFormId__in));
  if (filter.verifyFormCategory__in && filter.verifyFormCategory__in.length > 0) {
    const categories = filter.verifyFormCategory__in;
    conditions.push(
      columns.category
        ? inArray(columns.category, categories)
        : formIdIn(
            columns.verifyFormId,
            forms.inCategories,
            accountId,
            inArray(verifyForms.category, categories),
          ),
    );
  }
  const methods = filter.verificationMethod__in ?? [];
  // `all` (or nothing) means every method.
  if (methods.length > 0 && !methods.includes('all')) conditions.push(inArray(columns.method, methods));
  // No index leads with the source: it narrows the rows the account and date indexes find (see count.ts for the total).
  if (filter.source) conditions.push(eq(columns.source, filter.source));
  conditions.push(...createdWithin(columns.createdAt, resolveDateRange(filter, now)));
  if (filter.q) conditions.push(searchCondition(accountId, filter.q, columns, forms, mode));
  const where = and(...conditions);
  if (!where) throw new Error('unreachable: the account condition is always there');
  return where;
}

/**
 * The WHERE over `verifications` for the filters of the log, the report and the export. Pass `forms` from
 * `resolveForms(db, accountId, filter)` (one tiny query when `q` is set): without it the form-name reading of `q` is a
 * sub-select, which gives the same rows but a plan that scans the account.
 */
export function verificationWhere(
  accountId: number,
  filter: ModeFilter,
  now: Date,
  forms: ResolvedForms = {},
): SQL {
  const where = filterWhere(accountId, filter, now, verificationColumns, forms);
  if (filter.revoked === undefined) return where;
  const isTest = filter.mode ? filter.mode === 'test' : undefined;
  return sql`${where} and ${revokedCondition(accountId, isTest, filter.revoked)}`;
}

/**
 * The same filters over `verification_attempts` (codes sent). Categories go through the form's CURRENT category
 * (attempts keep no copy); the verifications keep the category they were made under.
 */
export function attemptWhere(
  accountId: number,
  filter: ModeFilter,
  now: Date,
  forms: ResolvedForms = {},
): SQL {
  return filterWhere(accountId, filter, now, attemptColumns, forms);
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
 *
 * The NULLS clauses are what the indexes were built with (no column here is nullable, but the planner only uses an
 * index whose null order matches): drizzle's `.desc()` index on created_at is DESC NULLS LAST, the others are plain
 * ASC (NULLS LAST), which a backward scan reads as DESC NULLS FIRST, the default of DESC.
 */
export function verificationOrderBy(o: VerificationSort): SQL[] {
  const descending = o.startsWith('-');
  const key = (descending ? o.slice(1) : o) as keyof typeof sortColumns;
  if (key === 'created')
    return descending
      ? [sql`${verifications.createdAt} desc nulls last`, sql`${verifications.id} desc nulls last`]
      : [sql`${verifications.createdAt} asc nulls first`, sql`${verifications.id} asc nulls first`];
  const direction = descending ? desc : asc;
  return [direction(sortColumns[key]), direction(verifications.id)];
}
