import type { VerificationReport, VerifyForm } from '@veriform/contracts';
import { schema } from '@veriform/db';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { resolveReportRange } from '../../domain/date-range.ts';
import { useTestApp } from '../../test-support/app.ts';
import { createPublicForm } from '../../test-support/public-verify.ts';
import { newOwner, type Owner } from '../../test-support/teams.ts';
import {
  createForm,
  localDate,
  random,
  setClock,
  testZones,
  verifyOnHostedPage,
  verifyTestOnHostedPage,
  verifyTestThroughApi,
  verifyThroughApi,
} from './test-helpers.ts';

/**
 * The report without a search reads hourly summaries kept by triggers (migration 0024, ADR 28), and the rows of the
 * hours a :30/:45 zone's midnight cuts. These tests compare every number of the report with an oracle that knows
 * nothing of hours: each row's local date in the report's zone (Intl), its form, category, method, source and steps,
 * read back from the rows themselves. Rows sit on and around UTC, New York, Kolkata, Kathmandu, St John's and Chatham
 * midnights; then the steps move (deliveries, code entries, approvals), rows are deleted and counted columns change.
 * Test rows (issue #33) are mixed in everywhere; the oracle leaves them out, as the live report must.
 */

const t = useTestApp();
const { verifications, verificationAttempts, codeEntries, verificationAttemptHourlyFunnel } = schema;

const zones = testZones;
// The US change back to standard time is 2026-11-01; the clock stands a few days after.
const NOW = '2026-11-05T15:00:00.000Z';
const FIRST = Date.parse('2026-10-20T00:00:00Z');
const LAST = Date.parse('2026-11-06T00:00:00Z');

/** Instants on and around UTC midnight and the zones' local midnights (minutes from UTC midnight), and random ones. */
function instants(next: () => number): Date[] {
  const out: Date[] = [];
  for (let day = FIRST; day <= LAST; day += 86_400_000) {
    for (const minutes of [0, 240, 300, -330, -345, 150, 210, 615, 675]) {
      const midnight = day + minutes * 60_000;
      out.push(new Date(midnight), new Date(midnight - 1), new Date(midnight + 1));
    }
  }
  for (let i = 0; i < 150; i += 1) out.push(new Date(FIRST + Math.floor(next() * (LAST - FIRST))));
  return out;
}

async function seed(owner: Owner, next: () => number) {
  const forms: VerifyForm[] = [
    await createForm(owner, { name: 'Loans', category: 'Lending' }),
    await createForm(owner, { name: 'Cards', category: 'Retail' }),
    await createForm(owner, { name: 'Leads', category: '' }),
  ];
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] as T;
  const times = instants(next);
  const rows = times.map((createdAt, i) => {
    const form = pick(forms);
    return {
      accountId: owner.accountId,
      verifyFormId: form.id,
      cellPhone: `+1201555${String(i).padStart(4, '0')}`,
      // A reference a search for a form's name also finds, on rows of every form (splitSearch's other readings).
      externalRefId: i % 7 === 0 ? `LOAN-${i}` : i % 7 === 1 ? `card-${i}` : '',
      verifyFormName: form.name,
      verifyFormCategory: next() < 0.2 ? 'Insurance' : form.category,
      verificationMethod: next() < 0.7 ? ('sms' as const) : ('email' as const),
      source: next() < 0.3 ? ('api' as const) : ('hosted' as const),
      // Test data (issue #33) mixed in: counted by the summaries, left out of the (live) report.
      isTest: i % 6 === 2,
      createdAt,
    };
  });
  const half = Math.floor(rows.length / 2);
  await t.db.db.insert(verifications).values(rows.slice(0, half));
  await t.db.db.insert(verifications).values(rows.slice(half));
  const attempts = times.map((createdAt, i) => {
    const method = next() < 0.7 ? ('sms' as const) : ('email' as const);
    return {
      id: `attempt-${owner.accountId}-${i}`,
      accountId: owner.accountId,
      verifyFormId: pick(forms).id,
      cellPhone: `+1201556${String(i).padStart(4, '0')}`,
      externalRefId: i % 5 === 0 ? `Loan-${i}` : '',
      method,
      codeHash: 'not-a-real-hash',
      source: next() < 0.3 ? ('api' as const) : ('hosted' as const),
      // Rows inserted with their steps already reached, as the seed script does.
      status: next() < 0.2 ? ('verified' as const) : ('pending' as const),
      deliveryStatus: pick(['queued', 'sent', 'delivered', 'failed'] as const),
      isTest: i % 7 === 3,
      createdAt,
      expiresAt: new Date(createdAt.getTime() + 600_000),
    };
  });
  await t.db.db.insert(verificationAttempts).values(attempts.slice(0, half));
  await t.db.db.insert(verificationAttempts).values(attempts.slice(half));
  return { forms, attempts };
}

function randomQuery(next: () => number, forms: VerifyForm[]) {
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] as T;
  const some = <T>(items: readonly T[]) => items.filter(() => next() < 0.5);
  const day = () =>
    new Date(FIRST + Math.floor(next() * (LAST - FIRST + 86_400_000))).toISOString().slice(0, 10);
  const params = new URLSearchParams({
    tz: pick(zones),
    created__date__preset: pick(['last7d', 'last30d', 'custom']),
  });
  if (params.get('created__date__preset') === 'custom') {
    params.set('created__date__gte', day());
    params.set('created__date__lte', day());
  }
  if (next() < 0.3) params.set('verifyFormId__in', some(forms.map((f) => String(f.id))).join(','));
  if (next() < 0.3) params.set('verifyFormCategory__in', some(['Lending', 'Retail', 'Insurance']).join(','));
  if (next() < 0.3) params.set('verificationMethod__in', pick(['sms', 'email', 'sms,email', 'all']));
  if (next() < 0.3) params.set('source', pick(['api', 'hosted']));
  // A form's name (read from the summaries), a reference prefix too, or neither (rows only).
  if (next() < 0.3) params.set('q', pick(['loa', 'CARD', 'lea', 'zzz']));
  return params;
}

type Filter = {
  days: (date: Date) => string | null;
  form: (id: number) => boolean;
  category: (c: string) => boolean;
  method: (m: string) => boolean;
  source: (s: string) => boolean;
  search: (formName: string, ref: string | null) => boolean;
};

function filterOf(params: URLSearchParams): Filter & { range: { gte: string; lte: string } } {
  const preset = params.get('created__date__preset') as 'last7d' | 'last30d' | 'custom';
  const range = resolveReportRange(
    {
      tz: params.get('tz') ?? undefined,
      created__date__preset: preset,
      created__date__gte: params.get('created__date__gte') ?? undefined,
      created__date__lte: params.get('created__date__lte') ?? undefined,
    },
    new Date(NOW),
  );
  const list = (key: string) => params.get(key)?.split(',').filter(Boolean) ?? [];
  const formIds = list('verifyFormId__in').map(Number);
  const categories = list('verifyFormCategory__in');
  const methods = list('verificationMethod__in');
  const source = params.get('source');
  const q = params.get('q')?.toLowerCase() ?? null;
  return {
    range,
    days: (date) => {
      const day = localDate(date, range.tz);
      return day >= range.gte && day <= range.lte ? day : null;
    },
    form: (id) => formIds.length === 0 || formIds.includes(id),
    category: (c) => categories.length === 0 || categories.includes(c),
    method: (m) => methods.length === 0 || methods.includes('all') || methods.includes(m),
    source: (s) => source === null || s === source,
    // The searches drawn are words: a form's current name containing it, or a reference starting with it.
    search: (formName, ref) =>
      q === null || formName.toLowerCase().includes(q) || (ref ?? '').toLowerCase().startsWith(q),
  };
}

/** The rows as they are now, read once for the oracle's queries. */
async function rowsNow(owner: Owner) {
  const rows = await t.db.db.select().from(verifications).where(eq(verifications.accountId, owner.accountId));
  const attempts = await t.db.db
    .select()
    .from(verificationAttempts)
    .where(eq(verificationAttempts.accountId, owner.accountId));
  const entered = new Set(
    (await t.db.db.select({ id: codeEntries.attemptId }).from(codeEntries)).map((e) => e.id),
  );
  return { rows, attempts, entered };
}
type RowsNow = Awaited<ReturnType<typeof rowsNow>>;

/** The report's numbers from the rows, by local dates alone: live rows only (the report is live data, issue #33). */
function oracle({ rows, attempts, entered }: RowsNow, forms: VerifyForm[], params: URLSearchParams) {
  const f = filterOf(params);
  const nameOf = new Map(forms.map((form) => [form.id, form.name]));
  const perDay = new Map<string, { sms: number; email: number }>();
  const perForm = new Map<number, number>();
  const perCategory = new Map<string, number>();
  for (const row of rows) {
    if (row.isTest) continue;
    const day = f.days(row.createdAt);
    if (!day || !f.form(row.verifyFormId) || !f.category(row.verifyFormCategory)) continue;
    if (!f.method(row.verificationMethod) || !f.source(row.source)) continue;
    if (!f.search(nameOf.get(row.verifyFormId) ?? '', row.externalRefId)) continue;
    const counts = perDay.get(day) ?? { sms: 0, email: 0 };
    counts[row.verificationMethod] += 1;
    perDay.set(day, counts);
    perForm.set(row.verifyFormId, (perForm.get(row.verifyFormId) ?? 0) + 1);
    perCategory.set(row.verifyFormCategory, (perCategory.get(row.verifyFormCategory) ?? 0) + 1);
  }
  // Attempts keep no category: a category filter means the forms that have it now.
  const categoryOfForm = new Map(forms.map((form) => [form.id, form.category]));
  const steps = new Map<
    string,
    { codeRequested: number; delivered: number; codeEntered: number; verified: number }
  >();
  for (const a of attempts) {
    if (
      a.isTest ||
      !f.days(a.createdAt) ||
      !f.form(a.verifyFormId) ||
      !f.category(categoryOfForm.get(a.verifyFormId) ?? '')
    )
      continue;
    if (!f.method(a.method) || !f.source(a.source)) continue;
    if (!f.search(nameOf.get(a.verifyFormId) ?? '', a.externalRefId)) continue;
    const key = `${a.verifyFormId}/${a.method}`;
    const s = steps.get(key) ?? { codeRequested: 0, delivered: 0, codeEntered: 0, verified: 0 };
    s.codeRequested += 1;
    if (a.deliveryStatus === 'delivered' || (a.method === 'email' && a.deliveryStatus === 'sent'))
      s.delivered += 1;
    if (entered.has(a.id)) s.codeEntered += 1;
    if (a.status === 'verified') s.verified += 1;
    steps.set(key, s);
  }
  return { range: f.range, perDay, perForm, perCategory, steps };
}

async function expectReportMatches(owner: Owner, forms: VerifyForm[], params: URLSearchParams, now: RowsNow) {
  const response = await owner.c.get(`/api/verifications/report?account=${owner.accountId}&${params}`);
  expect(response.statusCode, response.body).toBe(200);
  const body = response.json<VerificationReport>();
  const want = oracle(now, forms, params);
  const context = params.toString();
  expect(body.range, context).toEqual({ ...want.range, tz: params.get('tz') });
  for (const day of body.perDay)
    expect(day, context).toEqual({ date: day.date, ...(want.perDay.get(day.date) ?? { sms: 0, email: 0 }) });
  expect(
    body.perDay.reduce((n, d) => n + d.sms + d.email, 0),
    context,
  ).toBe([...want.perDay.values()].reduce((n, d) => n + d.sms + d.email, 0));
  expect(new Map(body.byForm.map((f) => [f.verifyFormId, f.verifications])), context).toEqual(want.perForm);
  expect(new Map(body.byCategory.map((c) => [c.category, c.verifications])), context).toEqual(
    want.perCategory,
  );
  // The oracle's steps are keyed `form/channel`: the funnel, a channel and a form are sums over some of the keys.
  const sumSteps = (keep: (key: string) => boolean) => {
    const sum = { codeRequested: 0, delivered: 0, codeEntered: 0, verified: 0 };
    for (const [key, s] of want.steps)
      if (keep(key)) for (const k of Object.keys(sum) as (keyof typeof sum)[]) sum[k] += s[k];
    return sum;
  };
  expect(body.funnel, context).toMatchObject(sumSteps(() => true));
  for (const channel of body.funnel.byChannel)
    expect(channel, context).toMatchObject(sumSteps((key) => key.endsWith(`/${channel.channel}`)));
  for (const form of body.funnel.byForm)
    expect(form, context).toMatchObject(sumSteps((key) => key.startsWith(`${form.verifyFormId}/`)));
  return body;
}

/** Every zone's last 30 days, then random filters, all against the rows as they are now. */
async function expectEveryZoneAndSomeFilters(owner: Owner, forms: VerifyForm[], next: () => number) {
  const now = await rowsNow(owner);
  for (const tz of zones)
    await expectReportMatches(
      owner,
      forms,
      new URLSearchParams({ tz, created__date__preset: 'last30d' }),
      now,
    );
  // Searches that name a form and match references on other forms' rows too (splitSearch's two parts).
  for (const q of ['loa', 'CARD'])
    await expectReportMatches(
      owner,
      forms,
      new URLSearchParams({ tz: 'Asia/Kolkata', created__date__preset: 'last30d', q }),
      now,
    );
  for (let i = 0; i < 8; i += 1) await expectReportMatches(owner, forms, randomQuery(next, forms), now);
}

describe('the report from hourly summaries (migration 0024)', () => {
  it('equals the rows, read by local dates, in every zone and filter, before and after steps move and rows go', async () => {
    setClock(t, NOW);
    const owner = await newOwner(t.app);
    const next = random(20);
    const { forms, attempts } = await seed(owner, next);
    // Every zone's last 30 days once, then random filters.
    await expectEveryZoneAndSomeFilters(owner, forms, next);

    // Steps move after the insert: deliveries (one statement for many rows, and one at a time), code entries (the
    // first of an attempt counts; a second does not), approvals, and an attempt's form changes (a key column).
    const ids = attempts.map((a) => a.id);
    await t.db.db
      .update(verificationAttempts)
      .set({ deliveryStatus: 'delivered' })
      .where(
        inArray(
          verificationAttempts.id,
          ids.filter((_, i) => i % 5 === 0),
        ),
      );
    for (const id of ids.filter((_, i) => i % 29 === 1))
      await t.db.db
        .update(verificationAttempts)
        .set({ deliveryStatus: 'undelivered' })
        .where(eq(verificationAttempts.id, id));
    const typedFor = ids.filter((_, i) => i % 3 === 0);
    await t.db.db
      .insert(codeEntries)
      .values(typedFor.map((attemptId) => ({ attemptId, at: new Date(NOW), correct: false })));
    for (const attemptId of typedFor.filter((_, i) => i % 8 === 0))
      await t.db.db.insert(codeEntries).values({ attemptId, at: new Date(NOW), correct: false });
    await t.db.db
      .update(verificationAttempts)
      .set({ status: 'verified' })
      .where(
        inArray(
          verificationAttempts.id,
          ids.filter((_, i) => i % 11 === 2),
        ),
      );
    await t.db.db
      .update(verificationAttempts)
      .set({ status: 'locked' })
      .where(
        and(
          inArray(
            verificationAttempts.id,
            ids.filter((_, i) => i % 13 === 3),
          ),
          eq(verificationAttempts.status, 'verified'),
        ),
      );
    await t.db.db
      .update(verificationAttempts)
      .set({
        verifyFormId: (forms[0] as VerifyForm).id,
        createdAt: sql`${verificationAttempts.createdAt} + interval '90 minutes'`,
      })
      .where(
        inArray(
          verificationAttempts.id,
          ids.filter((_, i) => i % 17 === 4),
        ),
      );
    // Rows go, and a verification's counted columns change.
    await t.db.db.delete(verificationAttempts).where(
      inArray(
        verificationAttempts.id,
        ids.filter((_, i) => i % 19 === 5),
      ),
    );
    const [someVerification] = await t.db.db.select({ id: verifications.id }).from(verifications).limit(1);
    if (someVerification)
      await t.db.db
        .update(verifications)
        .set({ verifyFormCategory: 'Moved', createdAt: sql`${verifications.createdAt} - interval '5 hours'` })
        .where(eq(verifications.id, someVerification.id));
    await t.db.db.execute(
      sql`delete from ${verifications} where ${verifications.id} in (select id from ${verifications} order by id desc limit 40)`,
    );

    await expectEveryZoneAndSomeFilters(owner, forms, next);
  }, 60_000);

  it('leaves out test data made for real: test numbers on the hosted page and a test key’s verifications', async () => {
    setClock(t, NOW);
    const owner = await newOwner(t.app);
    const next = random(33);
    const { forms } = await seed(owner, next);
    const page = await createPublicForm(owner, { name: 'Leads page' });
    const all = [...forms, page];
    // Live and test verifications through the page and API v1, now (inside every zone's last 30 days).
    await verifyOnHostedPage(t, page);
    await verifyThroughApi(t, owner, page);
    for (let i = 0; i < 3; i += 1) await verifyTestOnHostedPage(t, owner, page);
    await verifyTestThroughApi(t, owner, page);
    const now = await rowsNow(owner);
    const made = now.rows.filter((r) => r.verifyFormId === page.id);
    expect(made.map((r) => r.isTest).sort()).toEqual([false, false, true, true, true, true]);
    expect(now.attempts.filter((a) => a.verifyFormId === page.id && a.isTest)).toHaveLength(4);
    const body = await expectReportMatches(
      owner,
      all,
      new URLSearchParams({ tz: 'UTC', created__date__preset: 'last7d', verifyFormId__in: String(page.id) }),
      now,
    );
    expect(body.totals.verifications).toBe(2);
    expect(body.funnel).toMatchObject({ codeRequested: 2, verified: 2 });
    await expectEveryZoneAndSomeFilters(owner, all, next);
  }, 60_000);

  it('counts an attempt once as entered, whatever the number of entries typed at once', async () => {
    setClock(t, NOW);
    const owner = await newOwner(t.app);
    const form = await createForm(owner, { name: 'Loans', category: 'Lending' });
    const createdAt = new Date('2026-11-05T14:10:00Z');
    await t.db.db.insert(verificationAttempts).values(
      ['a', 'b'].map((id) => ({
        id: `burst-${id}`,
        accountId: owner.accountId,
        verifyFormId: form.id,
        cellPhone: '+12015550100',
        method: 'sms' as const,
        codeHash: 'not-a-real-hash',
        createdAt,
        expiresAt: new Date(createdAt.getTime() + 600_000),
      })),
    );
    // 30 entries for one attempt and 10 deliveries of the other, each its own statement at once (concurrent
    // transactions on PostgreSQL's pool).
    await Promise.all([
      ...Array.from({ length: 30 }, () =>
        t.db.db.insert(codeEntries).values({ attemptId: 'burst-a', at: createdAt, correct: false }),
      ),
      ...Array.from({ length: 10 }, () =>
        t.db.db
          .update(verificationAttempts)
          .set({ deliveryStatus: 'delivered' })
          .where(eq(verificationAttempts.id, 'burst-b')),
      ),
    ]);
    const [funnel] = await t.db.db
      .select()
      .from(verificationAttemptHourlyFunnel)
      .where(eq(verificationAttemptHourlyFunnel.accountId, owner.accountId));
    expect(funnel).toMatchObject({ requested: 2, delivered: 1, entered: 1, verified: 0 });
    expect(funnel?.hour.toISOString()).toBe('2026-11-05T14:00:00.000Z');
    const body = await expectReportMatches(
      owner,
      [form],
      new URLSearchParams({ tz: 'Asia/Kolkata', created__date__preset: 'last7d' }),
      await rowsNow(owner),
    );
    expect(body.funnel).toMatchObject({ codeRequested: 2, delivered: 1, codeEntered: 1 });
  });
});
