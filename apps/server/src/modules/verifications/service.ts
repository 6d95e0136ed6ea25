import type {
  Verification,
  VerificationDetail,
  VerificationList,
  VerificationReport,
  VerificationRevocation,
  verificationListQuerySchema,
  verificationReportQuerySchema,
} from '@veriform/contracts';
import type { Db } from '@veriform/db';
import { schema } from '@veriform/db';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  type ApiVerificationRow,
  carrierColumns,
  carrierOf,
  consentEvidenceOf,
  reassignmentOf,
  simSwapOf,
} from '../../domain/api-verification.ts';
import { addDays, resolveReportRange } from '../../domain/date-range.ts';
import { maskPhone } from '../../domain/phone.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import type { AccountContext } from '../../plugins/account-context.ts';
import type { AuditLog } from '../audit/index.ts';
import { heldBy } from '../legal-holds/index.ts';
import { latestReassignmentColumns, latestReassignmentJoin } from '../lookups/index.ts';
import { countVerifications } from './count.ts';
import { resolveForms, verificationOrderBy, verificationWhere } from './filters.ts';
import { buildFunnel, funnelCounts, funnelTopFormIds } from './funnel.ts';
import { verificationReportCounts } from './report-counts.ts';
import { revocationColumns, revocationMarkOn } from './revoked.ts';

const { verifications, verifyForms, revocations, revocationMarks, verificationAttempts, legalHolds } = schema;

export type VerificationRow = typeof verifications.$inferSelect;
export type VerificationListParams = z.output<typeof verificationListQuerySchema>;
export type VerificationReportParams = z.output<typeof verificationReportQuerySchema>;

/**
 * Pages that start this deep are read by a deferred join (below); shallower ones, page 1 above all, as one plain
 * query: a join of the table with itself costs PostgreSQL ~0.3 ms to plan against ~0.1 ms for the plain query (the
 * table has 14 indexes to weigh), more than the few dozen heap rows it saves this close to the top
 * (docs/benchmarks.md, session 23).
 */
const DEFERRED_JOIN_FROM_OFFSET = 100;

/** The report's top forms (DESIGN §5). */
export const REPORT_TOP_FORMS = 10;

/**
 * The columns a list row shows: half of the table's, so a page reads, sends and maps less (the user agent, consent
 * hash and the rest are the detail's).
 */
const listedColumns = {
  id: verifications.id,
  cellPhone: verifications.cellPhone,
  externalRefId: verifications.externalRefId,
  verifyFormId: verifications.verifyFormId,
  verifyFormName: verifications.verifyFormName,
  verifyFormCategory: verifications.verifyFormCategory,
  verificationMethod: verifications.verificationMethod,
  isTest: verifications.isTest,
  source: verifications.source,
  createdAt: verifications.createdAt,
};
/** The columns with the row's first revoking revocation (issue #35; revoked.ts joins it). */
type Revoked = { revokedAt: Date | null; revocationId: string | null };
type ListedRow = Pick<VerificationRow, keyof typeof listedColumns> & Revoked;

export const toVerificationDto = (row: ListedRow): Verification => ({
  id: row.id,
  cellPhone: row.cellPhone,
  externalRefId: row.externalRefId,
  verifyFormId: row.verifyFormId,
  verifyFormName: row.verifyFormName,
  verifyFormCategory: row.verifyFormCategory,
  verificationMethod: row.verificationMethod,
  isTest: row.isTest,
  source: row.source,
  created: row.createdAt.toISOString(),
  revokedAt: row.revokedAt?.toISOString() ?? null,
  revocationId: row.revocationId,
});

/** Whole days from one `YYYY-MM-DD` to another. */
const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/** The revocation's own columns the detail shows beside `revokedAt` (issue #35). */
type RevocationShown = Pick<VerificationRevocation, 'channel' | 'phone' | 'email'>;
/** What the carrier said of the number (issue #36): its approved code's lookups and latest reassignment check. */
type CarrierShown = Pick<
  ApiVerificationRow,
  | 'carrierLineType'
  | 'carrierName'
  | 'simSwapLastAt'
  | 'simSwapWithinWindow'
  | 'simSwapWindowDays'
  | 'reassignmentCheckedAt'
  | 'reassignmentLastVerifiedDate'
  | 'reassignmentAnswer'
  | 'reassignmentErrorCode'
>;
/** A legal hold that reaches the verification, as the detail's notice shows it (issue #37). */
type HoldShown = VerificationDetail['holds'][number];
/** The detail's row: the whole verification, its first revoking revocation and what the detail shows of it. */
type DetailRow = VerificationRow &
  Revoked & { revocation: RevocationShown | null } & CarrierShown & {
    refreshes?: number | null;
    holds?: HoldShown[];
  };

/**
 * The legal holds that reach the verification now (issue #37), by the holds module's one rule (`heldBy`), oldest first,
 * with what the detail shows of each: one small subquery of the detail's one row (an account has few holds).
 */
const holdsShown = sql<
  HoldShown[]
>`(select coalesce(json_agg(json_build_object('id', lh.id, 'scope', lh.scope,
  'reason', lh.reason, 'placedAt', lh.placed_at) order by lh.placed_at, lh.id), '[]'::json)
  from ${legalHolds} lh where lh.id = any(${heldBy({
    accountId: verifications.accountId,
    verifyFormId: verifications.verifyFormId,
    cellPhone: verifications.cellPhone,
    email: verifications.email,
    id: verifications.id,
  })}))`.mapWith(holdsOf);

/** The subquery's JSON (parsed by one driver, text in another), its times made ISO 8601. */
function holdsOf(value: unknown): HoldShown[] {
  const list: unknown = typeof value === 'string' ? JSON.parse(value) : value;
  if (!Array.isArray(list)) return [];
  return list.map((item: HoldShown) => ({ ...item, placedAt: new Date(item.placedAt).toISOString() }));
}

/**
 * The verification (its id here) whose consent this one's approved code refreshes (issue #36 item 4): one probe by
 * key of the attempt its `refreshes` names. Needs the approved attempt joined (`approvedAttemptOn`).
 */
const refreshedVerificationId = sql<
  number | null
>`(select r.verification_id from ${verificationAttempts} r where r.id = ${verificationAttempts.refreshes})`.mapWith(
  verificationAttempts.verificationId,
);

/**
 * The latest reassigned-number check of the verification's approved code (the attempt whose `verification_id` it is),
 * by the lookups module's rule, and with the carrier's answers: read with the detail, by the certificate's standing.
 */
export const reassignmentShownColumns = latestReassignmentColumns;
export const carrierShownColumns = { ...carrierColumns, ...reassignmentShownColumns };
/** Joins `carrierShownColumns` need, after `verifications`: the approved attempt and its latest check. */
export const approvedAttemptOn = eq(verificationAttempts.verificationId, verifications.id);
export const latestReassignment = latestReassignmentJoin(sql`${verificationAttempts.id}`);

/**
 * The detail's row of one verification of the account (undefined: none): the verification, its first revoking
 * revocation, what the carrier said and the consent it refreshes. Read by the detail and by a redaction's answer, so
 * both show the same object.
 */
export async function detailRowOf(db: Db, accountId: number, id: number): Promise<DetailRow | undefined> {
  const [read] = await db
    .select({
      verification: verifications,
      ...revocationColumns,
      revocationChannel: revocations.channel,
      revocationPhone: revocations.phone,
      revocationEmail: revocations.email,
      ...carrierShownColumns,
      refreshes: refreshedVerificationId,
      holds: holdsShown,
    })
    .from(verifications)
    .leftJoin(revocationMarks, revocationMarkOn)
    .leftJoin(revocations, eq(revocations.id, revocationColumns.revocationId))
    .leftJoin(verificationAttempts, approvedAttemptOn)
    .leftJoinLateral(latestReassignment, sql`true`)
    .where(and(eq(verifications.accountId, accountId), eq(verifications.id, id)))
    .limit(1);
  if (!read) return undefined;
  return {
    ...read.verification,
    carrierLineType: read.carrierLineType,
    carrierName: read.carrierName,
    simSwapLastAt: read.simSwapLastAt,
    simSwapWithinWindow: read.simSwapWithinWindow,
    simSwapWindowDays: read.simSwapWindowDays,
    reassignmentCheckedAt: read.reassignmentCheckedAt,
    reassignmentLastVerifiedDate: read.reassignmentLastVerifiedDate,
    reassignmentAnswer: read.reassignmentAnswer,
    reassignmentErrorCode: read.reassignmentErrorCode,
    refreshes: read.refreshes,
    holds: read.holds,
    revokedAt: read.revokedAt,
    revocationId: read.revocationId,
    revocation:
      read.revocationChannel === null
        ? null
        : { channel: read.revocationChannel, phone: read.revocationPhone, email: read.revocationEmail },
  };
}

export const toDetailDto = (row: DetailRow): VerificationDetail => ({
  ...toVerificationDto(row),
  email: row.email,
  codeSentAt: row.codeSentAt?.toISOString() ?? null,
  verifiedAt: row.verifiedAt?.toISOString() ?? null,
  attempts: row.attempts,
  ip: row.ip,
  userAgent: row.userAgent,
  consent: consentEvidenceOf(row),
  redactedAt: row.redactedAt?.toISOString() ?? null,
  revocation:
    row.revocationId !== null && row.revokedAt !== null && row.revocation !== null
      ? { id: row.revocationId, receivedAt: row.revokedAt.toISOString(), ...row.revocation }
      : null,
  carrier: carrierOf(row),
  simSwap: simSwapOf(row),
  reassignment: reassignmentOf(row),
  refreshes: row.refreshes ?? null,
  heldBy: (row.holds ?? []).map((hold) => hold.id),
  holds: row.holds ?? [],
});

/**
 * Verifications of one account (SPEC §2 /activity-log/ and /dashboard/). The filters and sorts are SQL built in
 * filters.ts, shared with the CSV export. Every query is scoped by `ctx.accountId` and kept short: on PGlite one
 * query at a time runs, on the main thread.
 */
export function createVerificationService(deps: {
  db: Db;
  clock: Clock;
  /** The audit log (issue #16): a detail view is recorded. */
  audit: AuditLog;
}) {
  const { db, clock, audit } = deps;

  async function list(ctx: AccountContext, query: VerificationListParams): Promise<VerificationList> {
    const now = clock.now();
    const forms = await resolveForms(db, ctx.accountId, query);
    const where = verificationWhere(ctx.accountId, query, now, forms);
    const orderBy = verificationOrderBy(query.o);
    const offset = (query.pageNumber - 1) * query.pageSize;
    const pageRows = () => {
      // Each row of the page with its revocation (issue #35): one probe by key a row.
      if (offset < DEFERRED_JOIN_FROM_OFFSET)
        return db
          .select({ ...listedColumns, ...revocationColumns })
          .from(verifications)
          .leftJoin(revocationMarks, revocationMarkOn)
          .where(where)
          .orderBy(...orderBy)
          .limit(query.pageSize)
          .offset(offset);
      // A deferred join: the page's ids first, from the sort's index alone (each ends with the id), then whole rows
      // for those ten only. OFFSET reads and drops every row before the page; dropped index entries cost far less
      // than dropped heap rows (page 5000 of a million: ~200 ms → a few ms).
      const page = db
        .select({ id: verifications.id })
        .from(verifications)
        .where(where)
        .orderBy(...orderBy)
        .limit(query.pageSize)
        .offset(offset)
        .as('page');
      return db
        .select({ ...listedColumns, ...revocationColumns })
        .from(verifications)
        .innerJoin(page, eq(verifications.id, page.id))
        .leftJoin(revocationMarks, revocationMarkOn)
        .orderBy(...orderBy);
    };
    // Independent reads: on PostgreSQL they run on two pooled connections at once; PGlite runs them one by one.
    const [total, rows] = await Promise.all([
      countVerifications(db, ctx.accountId, query, now, forms),
      pageRows(),
    ]);
    return {
      count: total,
      pageNumber: query.pageNumber,
      pageSize: query.pageSize,
      results: rows.map(toVerificationDto),
    };
  }

  /**
   * One verification with its evidence; another account's (or an unknown) id is not found. Every view is recorded
   * (`verification.viewed`, issue #16: who looked at whose number) before the answer is given, so an answer that was
   * given is an answer in the log. No transaction is needed for that: the event is one statement (the chain head is
   * locked only while it runs), and a failure to record it fails the request. The event names the number masked (as
   * the public page shows it): enough for an owner to recognise it, while the log, kept for years and exported to
   * other tools, does not spread full numbers.
   */
  async function get(ctx: AccountContext, id: number): Promise<VerificationDetail> {
    const row = await detailRowOf(db, ctx.accountId, id);
    if (!row) throw new AppError('not_found');
    await audit.record(db, ctx, {
      action: 'verification.viewed',
      targets: [{ type: 'verification', id: String(row.id), name: maskPhone(row.cellPhone) }],
    });
    return toDetailDto(row);
  }

  /**
   * The dashboard report (DESIGN §5) over the filters: verifications per local day and method (the totals are its
   * sums), per form and category (report-counts.ts); the funnel's steps, failures and page views (funnel.ts); then the
   * top forms' names, once for both lists. Without a search the counts come from hourly summaries (ADR 28), so the
   * report's cost does not grow with the range's rows. The range is always bounded (resolveReportRange).
   */
  async function report(ctx: AccountContext, query: VerificationReportParams): Promise<VerificationReport> {
    const now = clock.now();
    const range = resolveReportRange(query, now);
    const filter = {
      ...query,
      created__date__preset: 'custom' as const,
      created__date__gte: range.gte,
      created__date__lte: range.lte,
    };
    const forms = await resolveForms(db, ctx.accountId, filter);
    const dayCount = daysBetween(range.gte, range.lte) + 1;
    // Independent: on PostgreSQL they run on pooled connections at once; PGlite runs them one by one, letting other
    // requests in between.
    const scope = { accountId: ctx.accountId, filter, range, now, forms };
    const [{ byDayAndMethod, pairs }, funnel] = await Promise.all([
      verificationReportCounts(db, scope),
      funnelCounts(db, scope),
    ]);
    // Every day of the range, zeros included, oldest first.
    const perDay: VerificationReport['perDay'] = Array.from({ length: dayCount }, (_, i) => ({
      date: addDays(range.gte, i),
      sms: 0,
      email: 0,
    }));
    for (const row of byDayAndMethod) {
      const day = perDay[row.bucket - 1];
      if (day) day[row.method] += row.n;
    }
    const sms = perDay.reduce((sum, d) => sum + d.sms, 0);
    const email = perDay.reduce((sum, d) => sum + d.email, 0);

    // Top forms by the form id; ties by the lower id.
    const perForm = new Map<number, number>();
    const perCategory = new Map<string, number>();
    for (const { formId, category, n } of pairs) {
      perForm.set(formId, (perForm.get(formId) ?? 0) + n);
      perCategory.set(category, (perCategory.get(category) ?? 0) + n);
    }
    const top = [...perForm.entries()].sort((x, y) => y[1] - x[1] || x[0] - y[0]).slice(0, REPORT_TOP_FORMS);
    // The form's current name (rows keep the name they were made under), for both top-forms lists at once.
    const named = [...new Set([...top.map(([id]) => id), ...funnelTopFormIds(funnel)])];
    const names =
      named.length === 0
        ? []
        : await db
            .select({ id: verifyForms.id, name: verifyForms.name })
            .from(verifyForms)
            .where(and(eq(verifyForms.accountId, ctx.accountId), inArray(verifyForms.id, named)));
    const nameOf = new Map(names.map((f) => [f.id, f.name]));
    const byForm = top.map(([verifyFormId, n]) => ({
      verifyFormId,
      verifyFormName: nameOf.get(verifyFormId) ?? '',
      verifications: n,
    }));
    const byCategory = [...perCategory.entries()]
      .sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0))
      .map(([category, n]) => ({ category, verifications: n }));

    return {
      range: { gte: range.gte, lte: range.lte, tz: range.tz },
      totals: { verifications: sms + email, sms, email },
      perDay,
      byForm,
      byCategory,
      funnel: buildFunnel(funnel, (id) => nameOf.get(id) ?? ''),
    };
  }

  return { list, get, report };
}

export type VerificationService = ReturnType<typeof createVerificationService>;
