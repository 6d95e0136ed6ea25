import {
  type DeliveryHistoryEvent,
  type DeliveryStatus,
  deliveryReasonOf,
  type VerificationAttempt,
  type VerificationAttemptSearch,
  type VerificationMode,
} from '@veriform/contracts';
import { type Db, schema } from '@veriform/db';
import { and, asc, count, eq, inArray, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { resolveDateRange } from '../../domain/date-range.ts';
import { DELIVERY_UNKNOWN_AFTER_MS, statusAt } from '../attempts/index.ts';
import { attemptWhere, countByDays, type ResolvedForms, resolveForms } from '../verifications/index.ts';

const {
  verificationAttempts: a,
  verifyForms,
  codeEntries,
  codeDeliveryEvents,
  verificationAttemptDailyCounts,
} = schema;

/**
 * The SQL shared by the attempts list and its CSV (issue #18 item 6), so both read the same rows the same way: the
 * log's filters (filters.ts `attemptWhere`) plus the delivery status, newest first, one row per attempt.
 */

export type AttemptFilter = Omit<VerificationAttemptSearch, 'pageNumber' | 'pageSize' | 'mode'> & {
  /** Live or test attempts (issue #33); none: both, as the report's funnel reads them. */
  mode?: VerificationMode | undefined;
};

/**
 * The delivery status as shown, in SQL: domain/attempt-state.ts `shownDeliveryStatus` (an SMS still queued or
 * sent DELIVERY_UNKNOWN_AFTER_MS after the provider took it is `unknown`), with `now` the app's clock. Computed by
 * PostgreSQL for the filter AND for the value shown, so the two agree to the microsecond (a JS Date of `sent_at` would
 * drop its microseconds, and a row at the boundary could show `unknown` yet be found under `sent`).
 */
export function shownDeliveryStatusSql(now: Date): SQL<DeliveryStatus> {
  const unknownFrom = new Date(now.getTime() - DELIVERY_UNKNOWN_AFTER_MS);
  return sql<DeliveryStatus>`(CASE WHEN ${a.method} = 'sms' AND ${a.deliveryStatus} IN ('queued', 'sent') AND ${a.sentAt} IS NOT NULL AND ${a.sentAt} <= ${unknownFrom} THEN 'unknown' ELSE ${a.deliveryStatus} END)`;
}

/**
 * The WHERE of a filter: the account, the log's filters, then the delivery statuses chosen (none: every one). No index
 * leads with the status: it narrows what the account and date indexes find.
 */
export async function attemptFilterWhere(
  db: Db,
  accountId: number,
  filter: AttemptFilter,
  now: Date,
): Promise<SQL> {
  return (await attemptFilter(db, accountId, filter, now)).where;
}

/** attemptFilterWhere with the form ids it resolved (names in `q`, categories), which the total reuses. */
export async function attemptFilter(
  db: Db,
  accountId: number,
  filter: AttemptFilter,
  now: Date,
): Promise<{ where: SQL; forms: ResolvedForms }> {
  // Form names (`q`) and categories as id lists first, as the log does (filters.ts resolveForms).
  const forms = await resolveForms(db, accountId, filter);
  const where = attemptWhere(accountId, filter, now, forms);
  const statuses = filter.deliveryStatus ?? [];
  if (statuses.length === 0) return { where, forms };
  return { where: and(where, inArray(shownDeliveryStatusSql(now), statuses)) ?? where, forms };
}

/**
 * The number of attempts a filter matches, exact. Without a search or a delivery status every filter is a column of
 * verification_attempt_daily_counts (categories through their resolved forms), so whole UTC days are summed from it
 * and only the partial days at the ends are counted (countByDays, ADR 27): a plain count of an account with ten
 * million attempts reads ten million index entries (~1 s). A search or a delivery status (derived from the clock) is
 * counted as it is.
 */
export async function countAttempts(
  db: Db,
  accountId: number,
  filter: AttemptFilter,
  now: Date,
  { where: filtered, forms }: { where: SQL; forms: ResolvedForms },
): Promise<number> {
  const where = filtered;
  if (filter.q?.trim() || (filter.deliveryStatus ?? []).length > 0) {
    const [row] = await db.select({ n: count() }).from(a).where(where);
    return row?.n ?? 0;
  }
  const c = verificationAttemptDailyCounts;
  const keys: SQL[] = [eq(c.accountId, accountId)];
  // Live or test (issue #33): the daily counts keep test attempts under a key of their own (ADR 29).
  if (filter.mode) keys.push(eq(c.isTest, filter.mode === 'test'));
  if (filter.verifyFormId__in && filter.verifyFormId__in.length > 0)
    keys.push(inArray(c.verifyFormId, filter.verifyFormId__in));
  if (filter.verifyFormCategory__in && filter.verifyFormCategory__in.length > 0) {
    const ids = forms.inCategories ?? [];
    keys.push(ids.length > 0 ? inArray(c.verifyFormId, ids) : sql`false`);
  }
  const methods = filter.verificationMethod__in ?? [];
  if (methods.length > 0 && !methods.includes('all'))
    keys.push(
      inArray(
        c.method,
        methods.filter((m): m is Exclude<typeof m, 'all'> => m !== 'all'),
      ),
    );
  if (filter.source) keys.push(eq(c.source, filter.source));
  return countByDays(db, {
    counts: { table: c, day: c.day, n: c.n, where: keys },
    rows: { table: a, createdAt: a.createdAt, where },
    range: resolveDateRange(filter, now),
  });
}

/**
 * Newest first; the id breaks ties, so pages and export batches never overlap. NULLS LAST as the (account_id,
 * created_at, id) index was built (drizzle's `.desc()`): with PostgreSQL's default for DESC (NULLS FIRST) the planner
 * cannot read the order from it and sorts every row of the account.
 */
export const attemptOrderBy = [sql`${a.createdAt} desc nulls last`, sql`${a.id} desc nulls last`];

/**
 * An attempt's columns for the list and the CSV. `verifyFormName` is the form's current name (attempts keep no copy).
 * `codesEntered` counts `code_entries` (each code typed, right or wrong; issue #18): the evidence itself, rather than
 * `wrong_tries` + 1 when verified, which says nothing of attempts made before code entries were recorded and would
 * disagree with the timeline.
 */
export function attemptColumns(now: Date) {
  return {
    id: a.id,
    createdAt: a.createdAt,
    cellPhone: a.cellPhone,
    email: a.email,
    externalRefId: a.externalRefId,
    verifyFormId: a.verifyFormId,
    verifyFormName: verifyForms.name,
    method: a.method,
    source: a.source,
    isTest: a.isTest,
    status: a.status,
    expiresAt: a.expiresAt,
    deliveryStatus: shownDeliveryStatusSql(now),
    deliveryErrorCode: a.deliveryErrorCode,
    providerMessageId: a.providerMessageId,
    verificationId: a.verificationId,
    codesEntered:
      sql<number>`(select count(*) from ${codeEntries} where ${codeEntries.attemptId} = ${a.id})`.mapWith(
        Number,
      ),
  };
}

/**
 * The rows of `attemptColumns` for the ids a sub-select picks (a page or a batch, from the indexes alone), in the list's
 * order: the form's name and the codes entered are then read for those rows only, not for the rows an OFFSET skips.
 */
export function attemptRows(db: Db, now: Date, ids: SQLWrapper) {
  return db
    .select(attemptColumns(now))
    .from(a)
    .innerJoin(verifyForms, eq(verifyForms.id, a.verifyFormId))
    .where(inArray(a.id, ids))
    .orderBy(...attemptOrderBy);
}

export type AttemptRow = Awaited<ReturnType<typeof attemptRows>>[number];

/** pending, verified, locked, replaced, canceled as stored; a pending code whose time ran out is `expired`. */
export function shownStatus(
  row: Pick<AttemptRow, 'status' | 'expiresAt'>,
  now: Date,
): VerificationAttempt['status'] {
  return statusAt(row, now);
}

/** The delivery history of the given attempts, oldest first, in one query (callbacks not yet matched to one are not). */
export async function deliveryHistories(
  db: Db,
  attemptIds: string[],
): Promise<Map<string, DeliveryHistoryEvent[]>> {
  const histories = new Map<string, DeliveryHistoryEvent[]>();
  if (attemptIds.length === 0) return histories;
  const rows = await db
    .select({
      attemptId: codeDeliveryEvents.attemptId,
      status: codeDeliveryEvents.status,
      at: codeDeliveryEvents.at,
      errorCode: codeDeliveryEvents.errorCode,
    })
    .from(codeDeliveryEvents)
    .where(inArray(codeDeliveryEvents.attemptId, attemptIds))
    .orderBy(asc(codeDeliveryEvents.at), asc(codeDeliveryEvents.id));
  for (const row of rows) {
    if (row.attemptId === null) continue;
    const history = histories.get(row.attemptId) ?? [];
    history.push({ status: row.status, at: row.at.toISOString(), errorCode: row.errorCode });
    histories.set(row.attemptId, history);
  }
  return histories;
}

export function toAttemptDto(
  row: AttemptRow,
  now: Date,
  events: DeliveryHistoryEvent[],
): VerificationAttempt {
  return {
    id: row.id,
    created: row.createdAt.toISOString(),
    cellPhone: row.cellPhone,
    email: row.email,
    externalRefId: row.externalRefId,
    verifyFormId: row.verifyFormId,
    verifyFormName: row.verifyFormName,
    channel: row.method,
    source: row.source,
    isTest: row.isTest,
    status: shownStatus(row, now),
    deliveryStatus: row.deliveryStatus,
    deliveryErrorCode: row.deliveryErrorCode,
    deliveryReason: deliveryReasonOf(row.method, row.deliveryErrorCode),
    providerMessageId: row.providerMessageId,
    events,
    codesEntered: row.codesEntered,
    verified: row.status === 'verified',
    verificationId: row.verificationId,
  };
}
