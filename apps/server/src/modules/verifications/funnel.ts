import {
  deliveryReasonOf,
  type FunnelSteps,
  type ReportFunnel,
  type VerificationFilter,
} from '@veriform/contracts';
import { type Db, schema } from '@veriform/db';
import { and, asc, count, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { createdWithin, resolveDateRange } from '../../domain/date-range.ts';
import { rowsOf } from '../../lib/rows.ts';
import { attemptWhere, type ResolvedForms, splitSearch } from './filters.ts';
import {
  type Channel,
  channelOf,
  hoursAroundWholeDays,
  minutesAtEnds,
  needsRows,
  type ReportScope,
  summaryWhere,
  wholeDaysWithin,
} from './report-hours.ts';

const {
  verificationAttempts,
  verificationAttemptHourlyFunnel,
  verificationAttemptDailyCounts,
  formPageViews,
} = schema;

/** The funnel's forms (DESIGN §5's top 10, by codes requested here). */
export const FUNNEL_TOP_FORMS = 10;
/** The failure reasons shown. */
export const FUNNEL_TOP_FAILURES = 5;

const channels: readonly Channel[] = ['sms', 'email'];

/**
 * The funnel's counts (issue #18 item 7; the steps are defined on the contract's funnelStepsSchema), read in at most
 * three statements, independent of each other:
 *
 * 1. the steps per (form, channel) (funnelSteps): without a search, from the summaries the attempts' triggers keep
 *    (ADR 28): the daily counts for the range's whole UTC days, the hourly funnel around them and the rows of the
 *    minutes at either end (report-hours.ts); with one, a scan of the matching attempts (a search that names forms
 *    reads those forms as a form filter, splitSearch). Live attempts only (issue #33): the summaries keep test
 *    attempts under a key of their own (`is_test`, ADR 29), so the live summaries and live rows are read; a scan
 *    reads the live attempts. The totals, channels and forms are its sums. "Code entered" is `code_entered`,
 *    which the first code entry sets (the attempts the export counts under "Codes entered", so both say the same);
 * 2. the failures per (channel, error code) over the live undelivered and failed attempts of the range, top 5, from
 *    the partial index of failed messages (only they are read);
 * 3. the page views per form, from form_page_views' (account_id, created_at, verify_form_id) index alone — skipped
 *    when the filters say something views cannot know (pageOpenedUnavailable).
 *
 * The forms' names are left to the caller, which looks them up once for the report's two top-forms lists.
 */
export async function funnelCounts(db: Db, scope: ReportScope) {
  const { accountId, filter, now, forms } = scope;
  const where = attemptWhere(accountId, filter, now, forms);
  const a = verificationAttempts;
  const unavailable = pageOpenedUnavailable(filter);
  const failureCount = count();

  const [steps, failures, views] = await Promise.all([
    funnelSteps(db, scope),
    db
      .select({ channel: a.method, errorCode: a.deliveryErrorCode, count: failureCount })
      .from(a)
      // Literal statuses, so the partial index's predicate is provably implied whatever the driver does with values.
      // Live attempts only (issue #33): `not is_test` on rows the index finds, whose heap is read anyway.
      .where(and(where, eq(a.isTest, false), sql`${a.deliveryStatus} in ('undelivered', 'failed')`))
      .groupBy(a.method, a.deliveryErrorCode)
      .orderBy(desc(failureCount), asc(a.method), sql`${a.deliveryErrorCode} asc nulls last`)
      .limit(FUNNEL_TOP_FAILURES),
    unavailable
      ? Promise.resolve(null)
      : db
          .select({ formId: formPageViews.verifyFormId, n: count() })
          .from(formPageViews)
          .where(pageViewWhere(accountId, filter, now, forms))
          .groupBy(formPageViews.verifyFormId),
  ]);
  return { steps, failures, views, unavailable };
}

type StepRow = FunnelSteps & { formId: number; channel: Channel };

/** An attempt's steps as 0/1 columns, the same expressions as migration 0024's triggers. */
const delivered = sql`(${verificationAttempts.deliveryStatus} = 'delivered' or (${verificationAttempts.method} = 'email' and ${verificationAttempts.deliveryStatus} = 'sent'))`;

async function funnelSteps(db: Db, scope: ReportScope): Promise<StepRow[]> {
  const { accountId, filter, range, now, forms } = scope;
  const a = verificationAttempts;
  if (needsRows(filter)) {
    // A search that names forms: those forms from the summaries, its other readings from the rows outside them.
    const live = { ...filter, mode: 'live' as const };
    const split = splitSearch(filter, forms);
    if (!split) return scanSteps(db, attemptWhere(accountId, live, now, forms));
    const [byName, byOthers] = await Promise.all([
      split.byName ? funnelSteps(db, { ...scope, filter: split.byName }) : [],
      scanSteps(
        db,
        split.othersWhere((f) => attemptWhere(accountId, live, now, f), a.verifyFormId),
      ),
    ]);
    return [...byName, ...byOthers];
  }
  const where = attemptWhere(accountId, { ...filter, mode: 'live' }, now, forms);
  const f = verificationAttemptHourlyFunnel;
  const d = verificationAttemptDailyCounts;
  const answer = await db.execute(sql`
    select form_id, channel, sum(requested)::int as requested, sum(delivered)::int as delivered,
      sum(entered)::int as entered, sum(verified)::int as verified
    from (
      select ${d.verifyFormId}, ${d.method}, ${d.n}, ${d.delivered}, ${d.entered}, ${d.verified}
      from ${d}
      where ${and(...funnelSummaryWhere(d, accountId, filter, forms), ...wholeDaysWithin(d.day, range))}
      union all
      select ${f.verifyFormId}, ${f.method}, ${f.requested}, ${f.delivered}, ${f.entered}, ${f.verified}
      from ${f}
      where ${and(...funnelSummaryWhere(f, accountId, filter, forms), ...hoursAroundWholeDays(f.hour, range))}
      union all
      select ${a.verifyFormId}, ${a.method}, 1, (${delivered})::int, ${a.codeEntered}::int,
        (${a.status} = 'verified')::int
      from ${a} where ${where} and ${minutesAtEnds(a.createdAt, range)}
    ) as s (form_id, channel, requested, delivered, entered, verified)
    group by form_id, channel
    having sum(requested) <> 0`);
  return rowsOf(answer).map((row) => ({
    formId: Number(row.form_id),
    channel: channelOf(row.channel),
    codeRequested: Number(row.requested),
    delivered: Number(row.delivered),
    codeEntered: Number(row.entered),
    verified: Number(row.verified),
  }));
}

/** The steps of the attempts `where` matches, per form and channel, read from the rows (a search's few). */
function scanSteps(db: Db, where: SQL): Promise<StepRow[]> {
  const a = verificationAttempts;
  const counted = (condition: SQL) => sql<number>`count(*) filter (where ${condition})`.mapWith(Number);
  return db
    .select({
      formId: a.verifyFormId,
      channel: a.method,
      codeRequested: count(),
      delivered: counted(delivered),
      codeEntered: counted(sql`${a.codeEntered}`),
      verified: counted(sql`${a.status} = 'verified'`),
    })
    .from(a)
    .where(where)
    .groupBy(a.verifyFormId, a.method);
}

/**
 * The filters the funnel's summaries (hourly and daily, the same columns) answer, as `attemptWhere` applies them (a
 * category is its forms of today).
 */
function funnelSummaryWhere(
  summary: typeof verificationAttemptHourlyFunnel | typeof verificationAttemptDailyCounts,
  accountId: number,
  filter: VerificationFilter,
  forms: ResolvedForms,
): SQL[] {
  const columns = {
    accountId: summary.accountId,
    isTest: summary.isTest,
    verifyFormId: summary.verifyFormId,
    method: summary.method,
    source: summary.source,
  };
  return summaryWhere(accountId, filter, columns, () => {
    const ids = forms.inCategories ?? [];
    return ids.length > 0 ? inArray(summary.verifyFormId, ids) : sql`false`;
  });
}

export type FunnelCounts = Awaited<ReturnType<typeof funnelCounts>>;

/**
 * Page views know their form and time only. A channel (one of the two), API v1 (no page) or a search (a phone or a
 * reference no view has) cannot be applied to them: then there is no count rather than a wrong one.
 */
function pageOpenedUnavailable(filter: VerificationFilter): ReportFunnel['pageOpenedUnavailable'] {
  const methods = filter.verificationMethod__in ?? [];
  const allMethods =
    methods.length === 0 || methods.includes('all') || channels.every((c) => methods.includes(c));
  if (!allMethods) return 'channel';
  if (filter.source === 'api') return 'source';
  if (filter.q?.trim()) return 'search';
  return null;
}

/** The page views of the range for the filtered forms (form ids, categories through their resolved forms). */
function pageViewWhere(accountId: number, filter: VerificationFilter, now: Date, forms: ResolvedForms): SQL {
  const conditions: SQL[] = [eq(formPageViews.accountId, accountId)];
  conditions.push(...createdWithin(formPageViews.createdAt, resolveDateRange(filter, now)));
  if (filter.verifyFormId__in && filter.verifyFormId__in.length > 0)
    conditions.push(inArray(formPageViews.verifyFormId, filter.verifyFormId__in));
  if (filter.verifyFormCategory__in && filter.verifyFormCategory__in.length > 0) {
    const ids = forms.inCategories ?? [];
    conditions.push(ids.length > 0 ? inArray(formPageViews.verifyFormId, ids) : sql`false`);
  }
  const where = and(...conditions);
  if (!where) throw new Error('unreachable: the account condition is always there');
  return where;
}

const noSteps = (): FunnelSteps => ({ codeRequested: 0, delivered: 0, codeEntered: 0, verified: 0 });

function add(into: FunnelSteps, row: FunnelSteps): void {
  into.codeRequested += row.codeRequested;
  into.delivered += row.delivered;
  into.codeEntered += row.codeEntered;
  into.verified += row.verified;
}

/** The forms the funnel lists: most codes requested first, ties by the lower id. */
export function funnelTopFormIds(counts: FunnelCounts): number[] {
  const requested = new Map<number, number>();
  for (const row of counts.steps)
    requested.set(row.formId, (requested.get(row.formId) ?? 0) + row.codeRequested);
  return [...requested.entries()]
    .sort((x, y) => y[1] - x[1] || x[0] - y[0])
    .slice(0, FUNNEL_TOP_FORMS)
    .map(([id]) => id);
}

/** The contract's funnel from the counts; `nameOf` gives a form's current name. */
export function buildFunnel(counts: FunnelCounts, nameOf: (formId: number) => string): ReportFunnel {
  const total = noSteps();
  const perChannel = new Map<Channel, FunnelSteps>(channels.map((c) => [c, noSteps()]));
  const perForm = new Map<number, FunnelSteps>();
  for (const row of counts.steps) {
    add(total, row);
    const channel = perChannel.get(row.channel);
    if (channel) add(channel, row);
    let form = perForm.get(row.formId);
    if (!form) {
      form = noSteps();
      perForm.set(row.formId, form);
    }
    add(form, row);
  }
  const viewsOf = new Map((counts.views ?? []).map((v) => [v.formId, v.n]));
  const pageOpened = counts.views ? counts.views.reduce((sum, v) => sum + v.n, 0) : null;
  return {
    pageOpened,
    pageOpenedUnavailable: counts.unavailable,
    ...total,
    codesSent: total.codeRequested,
    conversionRate: total.codeRequested === 0 ? null : total.verified / total.codeRequested,
    byChannel: channels.map((channel) => ({ channel, ...(perChannel.get(channel) ?? noSteps()) })),
    byForm: funnelTopFormIds(counts).map((verifyFormId) => ({
      verifyFormId,
      verifyFormName: nameOf(verifyFormId),
      pageOpened: counts.views ? (viewsOf.get(verifyFormId) ?? 0) : null,
      ...(perForm.get(verifyFormId) ?? noSteps()),
    })),
    topFailureReasons: counts.failures.map((f) => ({
      errorCode: f.errorCode,
      channel: f.channel,
      count: f.count,
      reason: deliveryReasonOf(f.channel, f.errorCode),
    })),
  };
}
