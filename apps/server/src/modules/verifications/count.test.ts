import {
  datePresets,
  type VerificationFilter,
  type VerificationList,
  type VerifyForm,
} from '@veriform/contracts';
import { type Db, schema, transaction } from '@veriform/db';
import { eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { resolveDateRange } from '../../domain/date-range.ts';
import { useTestApp } from '../../test-support/app.ts';
import { newOwner, type Owner } from '../../test-support/teams.ts';
import { createForm, localDate, random, setClock, testZones } from './test-helpers.ts';

/**
 * The list's total comes from per-UTC-day counts plus the partial days at both ends (count.ts). These tests compare it
 * with an oracle that knows nothing of UTC days: each row's local date in the filter's zone (Intl), inside the
 * filter's local days. Rows sit on and around UTC and local midnights, across a daylight-saving change, in zones whose
 * days start at :30 and :45.
 */

const t = useTestApp();
const { verifications, verificationDailyCounts, verificationTotalCounts } = schema;

const zones = testZones;
// The US change back to standard time is 2026-11-01; the clock stands a few days after.
const NOW = '2026-11-05T15:00:00.000Z';
const FIRST = Date.parse('2026-10-27T00:00:00Z');
const LAST = Date.parse('2026-11-06T00:00:00Z');

type Row = typeof verifications.$inferInsert;

/** Instants on, just before and around every UTC midnight and every New York and Kolkata midnight, plus random ones. */
function instants(next: () => number): Date[] {
  const out: Date[] = [];
  for (let day = FIRST; day <= LAST; day += 86_400_000) {
    for (const offsetMinutes of [0, 240, 300, -330, 1110]) {
      const midnight = day + offsetMinutes * 60_000;
      out.push(new Date(midnight), new Date(midnight - 1), new Date(midnight + 1));
    }
  }
  for (let i = 0; i < 250; i += 1) out.push(new Date(FIRST + Math.floor(next() * (LAST - FIRST))));
  return out;
}

/** `testShare`: the share of test rows (issue #33), which each view (live, test) counts apart. */
async function seed(owner: Owner, next: () => number, testShare = 0) {
  const forms: VerifyForm[] = [
    await createForm(owner, { name: 'Loans', category: 'Lending' }),
    await createForm(owner, { name: 'Cards', category: 'Retail' }),
    await createForm(owner, { name: 'Leads', category: '' }),
  ];
  const categories = ['Lending', 'Retail', '', 'Insurance'];
  const rows: Row[] = instants(next).map((createdAt, i) => {
    const form = forms[Math.floor(next() * forms.length)] as VerifyForm;
    return {
      accountId: owner.accountId,
      verifyFormId: form.id,
      cellPhone: `+1201555${String(i).padStart(4, '0')}`,
      verifyFormName: form.name,
      // Now and then recorded under another category (the form was recategorised later).
      verifyFormCategory: next() < 0.2 ? 'Insurance' : form.category,
      verificationMethod: next() < 0.7 ? 'sms' : 'email',
      // Some references begin like a form's name: a search for "loans" finds them in every form.
      externalRefId: next() < 0.15 ? `LOANS-${i}` : `CRM-${i}`,
      // The daily counts keep no source: a source filter counts rows.
      source: next() < 0.3 ? 'api' : 'hosted',
      isTest: testShare > 0 && next() < testShare,
      createdAt,
    };
  });
  // Several rows per statement, as the statement triggers see them in production bursts and in the seed script.
  const half = Math.floor(rows.length / 2);
  await t.db.db.insert(verifications).values(rows.slice(0, half));
  await t.db.db.insert(verifications).values(rows.slice(half));
  return { forms, categories, rows };
}

function randomFilter(next: () => number, forms: VerifyForm[], categories: string[]) {
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] as T;
  const some = <T>(items: readonly T[]) => items.filter(() => next() < 0.5);
  const day = () =>
    new Date(FIRST + Math.floor(next() * (LAST - FIRST + 86_400_000))).toISOString().slice(0, 10);
  const params = new URLSearchParams({ tz: pick(zones), created__date__preset: pick(datePresets) });
  if (params.get('created__date__preset') === 'custom') {
    if (next() < 0.8) params.set('created__date__gte', day());
    if (next() < 0.8) params.set('created__date__lte', day());
  }
  if (next() < 0.4) params.set('verifyFormId__in', some(forms.map((f) => String(f.id))).join(','));
  if (next() < 0.3) params.set('verifyFormCategory__in', some(categories.filter(Boolean)).join(','));
  if (next() < 0.4) params.set('verificationMethod__in', pick(['sms', 'email', 'sms,email', 'all']));
  if (next() < 0.3) params.set('source', pick(['api', 'hosted']));
  // Without one the view is live (the contract's default).
  if (next() < 0.5) params.set('mode', pick(['live', 'test']));
  return params;
}

/** The rows a filter means, by local dates alone. */
function expectedCount(rows: Row[], params: URLSearchParams): number {
  const filter: Pick<
    VerificationFilter,
    'created__date__preset' | 'created__date__gte' | 'created__date__lte' | 'tz'
  > = {
    tz: params.get('tz') ?? undefined,
    created__date__preset: params.get('created__date__preset') as VerificationFilter['created__date__preset'],
    created__date__gte: params.get('created__date__gte') ?? undefined,
    created__date__lte: params.get('created__date__lte') ?? undefined,
  };
  const range = resolveDateRange(filter, new Date(NOW));
  const list = (key: string) => params.get(key)?.split(',').filter(Boolean) ?? [];
  const formIds = list('verifyFormId__in').map(Number);
  const categories = list('verifyFormCategory__in');
  const methods = list('verificationMethod__in');
  const source = params.get('source');
  const test = params.get('mode') === 'test';
  return rows.filter((row) => {
    if ((row.isTest ?? false) !== test) return false;
    const day = localDate(row.createdAt as Date, range.tz);
    if (range.gte && day < range.gte) return false;
    if (range.lte && day > range.lte) return false;
    if (formIds.length > 0 && !formIds.includes(row.verifyFormId)) return false;
    if (categories.length > 0 && !categories.includes(row.verifyFormCategory ?? '')) return false;
    if (methods.length > 0 && !methods.includes('all') && !methods.includes(row.verificationMethod))
      return false;
    if (source && (row.source ?? 'hosted') !== source) return false;
    return true;
  }).length;
}

const apiCount = async (owner: Owner, params: URLSearchParams) => {
  const response = await owner.c.get(`/api/verifications?account=${owner.accountId}&${params}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<VerificationList>().count;
};

/** The daily and all-time counts of an account summed, beside its rows counted. */
/**
 * The `i`th verification of one form, `i` seconds before `at`, its number made from `prefix` (each test its own):
 * what the burst tests insert, one statement each.
 */
function rowOf(
  form: VerifyForm,
  prefix: string,
  i: number,
  { method = 'sms', at = NOW }: { method?: 'sms' | 'email'; at?: string } = {},
): Row {
  return {
    accountId: form.account,
    verifyFormId: form.id,
    cellPhone: `${prefix}${String(i).padStart(4, '0')}`,
    verifyFormName: form.name,
    verifyFormCategory: form.category,
    verificationMethod: method,
    createdAt: new Date(Date.parse(at) - i * 1000),
  };
}

async function totals(accountId: number) {
  const [counted] = await t.db.db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(verifications)
    .where(eq(verifications.accountId, accountId));
  const [summed] = await t.db.db
    .select({ n: sql<number>`coalesce(sum(${verificationDailyCounts.n}), 0)`.mapWith(Number) })
    .from(verificationDailyCounts)
    .where(eq(verificationDailyCounts.accountId, accountId));
  const [allTime] = await t.db.db
    .select({ n: sql<number>`coalesce(sum(${verificationTotalCounts.n}), 0)`.mapWith(Number) })
    .from(verificationTotalCounts)
    .where(eq(verificationTotalCounts.accountId, accountId));
  return { rows: counted?.n, daily: summed?.n, total: allTime?.n };
}

describe('the list total (daily counts + partial days)', () => {
  // A seed and ~75 list calls: 10-15 s on PGlite alone, past the 20 s default on a busy machine (a hang detector).
  it('equals the rows of the local days in every zone, preset and filter', async () => {
    setClock(t, NOW);
    const next = random(20261122);
    const owner = await newOwner(t.app);
    const { forms, categories, rows } = await seed(owner, next, 0.15);
    expect(await totals(owner.accountId)).toEqual({
      rows: rows.length,
      daily: rows.length,
      total: rows.length,
    });

    for (let i = 0; i < 60; i += 1) {
      const params = randomFilter(next, forms, categories);
      expect(await apiCount(owner, params), params.toString()).toBe(expectedCount(rows, params));
    }
    // Every zone's "yesterday", whatever the draw gave.
    for (const tz of zones) {
      const params = new URLSearchParams({ tz, created__date__preset: 'yesterday' });
      expect(await apiCount(owner, params), tz).toBe(expectedCount(rows, params));
    }
    // A search naming a form: its rows by the daily counts, the references outside it by rows, none twice.
    const loans = forms[0] as VerifyForm;
    for (const extra of [
      '',
      `&verifyFormId__in=${forms[1]?.id}`,
      `&verifyFormId__in=${loans.id},${forms[2]?.id}`,
      '&verificationMethod__in=email&created__date__preset=last3d&tz=Asia/Kolkata',
      '&source=api',
      `&source=hosted&verifyFormId__in=${loans.id}&created__date__preset=last7d&tz=America/St_Johns`,
    ]) {
      const params = new URLSearchParams(`q=Loans${extra}`);
      const expected = rows.filter(
        (row, i) =>
          (row.verifyFormId === loans.id || row.externalRefId?.startsWith('LOANS')) &&
          expectedCount([rows[i] as Row], params) === 1,
      ).length;
      expect(await apiCount(owner, params), extra).toBe(expected);
    }
  }, 60_000);

  it('follows deletes, updates and truncation, and goes with the account', async () => {
    setClock(t, NOW);
    const next = random(7);
    const owner = await newOwner(t.app);
    const other = await newOwner(t.app);
    const { rows } = await seed(owner, next);
    await seed(other, next);
    const all = new URLSearchParams({ created__date__preset: 'all' });
    const mine = await t.db.db
      .select({ id: verifications.id })
      .from(verifications)
      .where(eq(verifications.accountId, owner.accountId));

    await t.db.db.delete(verifications).where(
      inArray(
        verifications.id,
        mine.slice(0, 10).map((r) => r.id),
      ),
    );
    expect(await apiCount(owner, all)).toBe(rows.length - 10);
    // Moving rows to another day and method moves their counts.
    await t.db.db
      .update(verifications)
      .set({ createdAt: new Date('2026-11-04T12:00:00Z'), verificationMethod: 'email' })
      .where(
        inArray(
          verifications.id,
          mine.slice(10, 40).map((r) => r.id),
        ),
      );
    const moved = new URLSearchParams({
      tz: 'UTC',
      created__date__preset: 'custom',
      created__date__gte: '2026-11-04',
      created__date__lte: '2026-11-04',
      verificationMethod__in: 'email',
    });
    const [direct] = await t.db.db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(verifications)
      .where(
        sql`${verifications.accountId} = ${owner.accountId} and ${verifications.verificationMethod} = 'email' and ${verifications.createdAt} >= '2026-11-04T00:00:00Z' and ${verifications.createdAt} < '2026-11-05T00:00:00Z'`,
      );
    expect(await apiCount(owner, moved)).toBe(direct?.n);
    // Without dates the all-time counts answer: they moved to the new method too.
    const [emails] = await t.db.db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(verifications)
      .where(
        sql`${verifications.accountId} = ${owner.accountId} and ${verifications.verificationMethod} = 'email'`,
      );
    expect(
      await apiCount(
        owner,
        new URLSearchParams({ created__date__preset: 'all', verificationMethod__in: 'email' }),
      ),
    ).toBe(emails?.n);
    // Rows that become test data move to the test view's counts (`is_test` is a key of the counts, issue #33).
    await t.db.db
      .update(verifications)
      .set({ isTest: true })
      .where(
        inArray(
          verifications.id,
          mine.slice(40, 45).map((r) => r.id),
        ),
      );
    expect(await apiCount(owner, new URLSearchParams({ created__date__preset: 'all', mode: 'test' }))).toBe(
      5,
    );
    expect(await apiCount(owner, all)).toBe(rows.length - 15);
    const left = rows.length - 10;
    expect(await totals(owner.accountId)).toEqual({ rows: left, daily: left, total: left });

    // The account goes, its counts with it; the other account's stay.
    const otherBefore = await totals(other.accountId);
    await t.db.db.delete(schema.accounts).where(eq(schema.accounts.id, owner.accountId));
    expect(await totals(owner.accountId)).toEqual({ rows: 0, daily: 0, total: 0 });
    expect(await totals(other.accountId)).toEqual(otherBefore);

    await t.db.db.execute(sql`truncate ${verifications} cascade`);
    expect(await totals(other.accountId)).toEqual({ rows: 0, daily: 0, total: 0 });
  });

  it('counts every row of a burst: 40 verifications of one form and day inserted at once, each its own statement', async () => {
    setClock(t, NOW);
    const owner = await newOwner(t.app);
    const form = await createForm(owner, { name: 'Burst', category: 'Lending' });
    // Every insert upserts the same daily and all-time rows; concurrent writers queue on them and none is lost.
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        t.db.db
          .insert(verifications)
          .values(rowOf(form, '+1202555', i, { method: i % 2 === 0 ? 'sms' : 'email' })),
      ),
    );
    expect(await totals(owner.accountId)).toEqual({ rows: 40, daily: 40, total: 40 });
    expect(await apiCount(owner, new URLSearchParams({ created__date__preset: 'all' }))).toBe(40);
    expect(
      await apiCount(
        owner,
        new URLSearchParams({ created__date__preset: 'all', verificationMethod__in: 'sms' }),
      ),
    ).toBe(20);
  });

  it('counts every move of a burst: 20 verifications moved to another day and method while 20 are inserted, at once', async () => {
    setClock(t, NOW);
    const owner = await newOwner(t.app);
    const form = await createForm(owner, { name: 'Moves', category: 'Lending' });
    const row = (i: number) => rowOf(form, '+1204555', i);
    const first = await t.db.db
      .insert(verifications)
      .values(Array.from({ length: 20 }, (_, i) => row(i)))
      .returning({ id: verifications.id });
    // Each move is its own statement (the row trigger moves its counts); each insert too (the statement triggers).
    await Promise.all([
      ...first.map(({ id }) =>
        t.db.db
          .update(verifications)
          .set({ createdAt: new Date('2026-11-02T12:00:00Z'), verificationMethod: 'email' })
          .where(eq(verifications.id, id)),
      ),
      ...Array.from({ length: 20 }, (_, i) => t.db.db.insert(verifications).values(row(100 + i))),
    ]);
    expect(await totals(owner.accountId)).toEqual({ rows: 40, daily: 40, total: 40 });
    const day = (gte: string, method: string) =>
      apiCount(
        owner,
        new URLSearchParams({
          tz: 'UTC',
          created__date__preset: 'custom',
          created__date__gte: gte,
          created__date__lte: gte,
          verificationMethod__in: method,
        }),
      );
    expect(await day('2026-11-02', 'email')).toBe(20);
    expect(await day('2026-11-05', 'sms')).toBe(20);
    expect(
      await apiCount(
        owner,
        new URLSearchParams({ created__date__preset: 'all', verificationMethod__in: 'email' }),
      ),
    ).toBe(20);
  });

  it('an update of an uncounted column (a redaction masking the number) touches no count nor its lock', async () => {
    setClock(t, NOW);
    const owner = await newOwner(t.app);
    const form = await createForm(owner, { name: 'Masked', category: 'Lending' });
    const row = (i: number) => rowOf(form, '+1203555', i);
    const [first] = await t.db.db.insert(verifications).values(row(0)).returning({ id: verifications.id });
    const firstId = first?.id ?? 0;
    const mask = (db: Db) =>
      db
        .update(verifications)
        .set({ cellPhone: '+1******0000', ip: null, redactedAt: new Date(NOW) })
        .where(eq(verifications.id, firstId));
    if (t.db.kind === 'postgres') {
      // While a redaction's transaction is open, a new verification of the same form and day is counted at once:
      // it would wait for the redaction's commit (here, fail on the lock timeout) if the update took the counts' rows.
      await transaction(t.db.db, async (tx) => {
        await mask(tx);
        await transaction(t.db.db, async (other) => {
          await other.execute(sql`set local lock_timeout = '2s'`);
          await other.insert(verifications).values(row(1));
        });
      });
    } else {
      await mask(t.db.db);
      await t.db.db.insert(verifications).values(row(1));
    }
    expect(await totals(owner.accountId)).toEqual({ rows: 2, daily: 2, total: 2 });
  });
});

/**
 * The attempts view's total (issue #20, ADR 27): verification_attempt_daily_counts (form, method, source) plus the
 * partial days, against the same oracle. Attempts keep no category: a category means the forms that have it now.
 */
describe('the attempts total (daily counts + partial days)', () => {
  const { verificationAttempts, verificationAttemptDailyCounts } = schema;

  async function seedAttempts(owner: Owner, next: () => number, testShare = 0) {
    const { forms, categories, rows } = await seed(owner, next, testShare);
    const categoryOf = new Map(forms.map((f) => [f.id, f.category]));
    // The oracle's rows: the attempts' own fields, the category their form has now.
    const oracle: Row[] = rows.map((row) => ({
      ...row,
      verifyFormCategory: categoryOf.get(row.verifyFormId) ?? '',
    }));
    const attempts = rows.map((row, i) => ({
      id: `count-${owner.accountId}-${i}`,
      accountId: owner.accountId,
      verifyFormId: row.verifyFormId,
      cellPhone: row.cellPhone,
      method: row.verificationMethod,
      externalRefId: row.externalRefId ?? '',
      codeHash: 'not-a-real-hash',
      source: row.source ?? 'hosted',
      isTest: row.isTest ?? false,
      createdAt: row.createdAt as Date,
      expiresAt: new Date((row.createdAt as Date).getTime() + 600_000),
    }));
    const half = Math.floor(attempts.length / 2);
    await t.db.db.insert(verificationAttempts).values(attempts.slice(0, half));
    await t.db.db.insert(verificationAttempts).values(attempts.slice(half));
    return { forms, categories, oracle };
  }

  const attemptCount = async (owner: Owner, params: URLSearchParams) => {
    const response = await owner.c.get(`/api/verification-attempts?account=${owner.accountId}&${params}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ count: number }>().count;
  };

  async function attemptTotals(accountId: number) {
    const [counted] = await t.db.db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(verificationAttempts)
      .where(eq(verificationAttempts.accountId, accountId));
    const [summed] = await t.db.db
      .select({ n: sql<number>`coalesce(sum(${verificationAttemptDailyCounts.n}), 0)`.mapWith(Number) })
      .from(verificationAttemptDailyCounts)
      .where(eq(verificationAttemptDailyCounts.accountId, accountId));
    return { rows: counted?.n, daily: summed?.n };
  }

  it('equals the attempts of the local days in every zone, preset and filter', async () => {
    setClock(t, NOW);
    const next = random(20261125);
    const owner = await newOwner(t.app);
    const { forms, categories, oracle } = await seedAttempts(owner, next, 0.15);
    const live = oracle.filter((row) => !row.isTest);
    expect(await attemptTotals(owner.accountId)).toEqual({ rows: oracle.length, daily: oracle.length });
    for (let i = 0; i < 60; i += 1) {
      const params = randomFilter(next, forms, categories);
      expect(await attemptCount(owner, params), params.toString()).toBe(expectedCount(oracle, params));
    }
    for (const tz of zones) {
      const params = new URLSearchParams({ tz, created__date__preset: 'yesterday' });
      expect(await attemptCount(owner, params), tz).toBe(expectedCount(oracle, params));
    }
    // A search and a delivery status are counted as rows, and agree with the list's rows.
    const searched = new URLSearchParams({ q: 'LOANS' });
    const loans = forms[0] as VerifyForm;
    expect(await attemptCount(owner, searched)).toBe(
      live.filter((row) => row.verifyFormId === loans.id || row.externalRefId?.startsWith('LOANS')).length,
    );
    const queued = new URLSearchParams({ deliveryStatus: 'queued', created__date__preset: 'all' });
    expect(await attemptCount(owner, queued)).toBe(live.length);
  }, 60_000);

  it('follows deletes, updates of a counted column and truncation, and goes with the account', async () => {
    setClock(t, NOW);
    const next = random(11);
    const owner = await newOwner(t.app);
    const other = await newOwner(t.app);
    const { oracle } = await seedAttempts(owner, next);
    await seedAttempts(other, next);
    const all = new URLSearchParams({ created__date__preset: 'all' });
    const mine = await t.db.db
      .select({ id: verificationAttempts.id })
      .from(verificationAttempts)
      .where(eq(verificationAttempts.accountId, owner.accountId));

    await t.db.db.delete(verificationAttempts).where(
      inArray(
        verificationAttempts.id,
        mine.slice(0, 10).map((r) => r.id),
      ),
    );
    expect(await attemptCount(owner, all)).toBe(oracle.length - 10);
    // Updates of other columns (the everyday ones) leave the counts alone; a counted column moves its count.
    await t.db.db
      .update(verificationAttempts)
      .set({ status: 'verified', deliveryStatus: 'delivered', wrongTries: 1 })
      .where(eq(verificationAttempts.accountId, owner.accountId));
    await t.db.db
      .update(verificationAttempts)
      .set({ createdAt: new Date('2026-11-04T12:00:00Z'), method: 'email', source: 'api' })
      .where(
        inArray(
          verificationAttempts.id,
          mine.slice(10, 40).map((r) => r.id),
        ),
      );
    const moved = new URLSearchParams({
      tz: 'UTC',
      created__date__preset: 'custom',
      created__date__gte: '2026-11-04',
      created__date__lte: '2026-11-04',
      verificationMethod__in: 'email',
      source: 'api',
    });
    const [direct] = await t.db.db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(verificationAttempts)
      .where(
        sql`${verificationAttempts.accountId} = ${owner.accountId} and ${verificationAttempts.method} = 'email' and ${verificationAttempts.source} = 'api' and ${verificationAttempts.createdAt} >= '2026-11-04T00:00:00Z' and ${verificationAttempts.createdAt} < '2026-11-05T00:00:00Z'`,
      );
    expect(direct?.n).toBeGreaterThanOrEqual(30);
    expect(await attemptCount(owner, moved)).toBe(direct?.n);
    expect(await attemptTotals(owner.accountId)).toEqual({
      rows: oracle.length - 10,
      daily: oracle.length - 10,
    });

    const otherBefore = await attemptTotals(other.accountId);
    await t.db.db.delete(schema.accounts).where(eq(schema.accounts.id, owner.accountId));
    expect(await attemptTotals(owner.accountId)).toEqual({ rows: 0, daily: 0 });
    expect(await attemptTotals(other.accountId)).toEqual(otherBefore);

    await t.db.db.execute(sql`truncate ${verificationAttempts} cascade`);
    expect(await attemptTotals(other.accountId)).toEqual({ rows: 0, daily: 0 });
  });
});
