import { errorTexts, type VerificationList, type VerificationReport } from '@veriform/contracts';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test-support/app.ts';
import { createPublicForm } from '../../test-support/public-verify.ts';
import { join, newOwner, type Owner } from '../../test-support/teams.ts';
import {
  createForm,
  insertAttempt,
  insertVerification,
  setClock,
  verifyOnHostedPage,
  verifyTestOnHostedPage,
  verifyTestThroughApi,
  verifyThroughApi,
} from './test-helpers.ts';

/** GET /api/verifications/report: the dashboard (SPEC §2 /dashboard/, DESIGN §5), on a real database. */

const t = useTestApp();

/** Sunday 2026-03-15 12:00 EDT in New York; the clocks sprang forward on 2026-03-08 (a 23-hour day). */
const NOW = '2026-03-15T16:00:00Z';

const report = async (owner: Pick<Owner, 'c' | 'accountId'>, query = '') => {
  const response = await owner.c.get(`/api/verifications/report?account=${owner.accountId}&${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<VerificationReport>();
};

async function world() {
  setClock(t, NOW);
  const owner = await newOwner(t.app);
  const loans = await createForm(owner, { name: 'Loans', category: 'Lending' });
  const cards = await createForm(owner, { name: 'Cards', category: 'Retail' });
  const at = (iso: string) => ({ createdAt: new Date(iso) });
  await insertVerification(t, loans, at('2026-03-15T04:30:00Z')); // Mar 15 00:30 EDT
  await insertVerification(t, loans, at('2026-03-15T15:00:00Z')); // Mar 15 11:00 EDT
  await insertVerification(t, cards, { ...at('2026-03-13T16:00:00Z'), verificationMethod: 'email' }); // Mar 13
  await insertVerification(t, cards, at('2026-03-09T04:00:00Z')); // Mar 9 00:00 EDT: first instant of last7d
  await insertVerification(t, loans, at('2026-03-09T03:30:00Z')); // Mar 8 23:30 EDT: the DST day, not last7d
  for (let i = 0; i < 5; i++) await insertAttempt(t, loans, at('2026-03-14T12:00:00Z'));
  for (let i = 0; i < 2; i++)
    await insertAttempt(t, cards, { ...at('2026-03-13T12:00:00Z'), method: 'email' });
  await insertAttempt(t, loans, at('2026-03-09T03:30:00Z')); // Mar 8 local: outside last7d
  return { owner, loans, cards };
}

const zeros = (date: string) => ({ date, sms: 0, email: 0 });

describe('GET /api/verifications/report', () => {
  it('last7d by default: totals, every local day with zeros, top forms, categories and the funnel', async () => {
    const { owner, loans, cards } = await world();
    const body = await report(owner, 'tz=America/New_York');
    expect(body).toEqual({
      range: { gte: '2026-03-09', lte: '2026-03-15', tz: 'America/New_York' },
      totals: { verifications: 4, sms: 3, email: 1 },
      perDay: [
        { date: '2026-03-09', sms: 1, email: 0 },
        zeros('2026-03-10'),
        zeros('2026-03-11'),
        zeros('2026-03-12'),
        { date: '2026-03-13', sms: 0, email: 1 },
        zeros('2026-03-14'),
        { date: '2026-03-15', sms: 2, email: 0 },
      ],
      // Ties in count: the lower form id first.
      byForm: [
        { verifyFormId: loans.id, verifyFormName: 'Loans', verifications: 2 },
        { verifyFormId: cards.id, verifyFormName: 'Cards', verifications: 2 },
      ],
      byCategory: [
        { category: 'Lending', verifications: 2 },
        { category: 'Retail', verifications: 2 },
      ],
      // The funnel follows the range's attempts (funnel.test.ts has each step): here none was delivered or entered.
      funnel: expect.objectContaining({ codeRequested: 7, codesSent: 7, verified: 0, conversionRate: 0 }),
    });
    // Without tz (or with one the runtime does not know), New York; an unknown preset, last7d.
    expect(await report(owner)).toEqual(body);
    expect(await report(owner, 'tz=Nowhere/City&created__date__preset=today')).toEqual(body);
  });

  it('last30d covers the 23-hour DST day; filters narrow the report and its funnel alike', async () => {
    const { owner, loans, cards } = await world();
    const month = await report(owner, 'created__date__preset=last30d');
    expect(month.range).toEqual({ gte: '2026-02-14', lte: '2026-03-15', tz: 'America/New_York' });
    expect(month.perDay).toHaveLength(30);
    expect(month.perDay.find((d) => d.date === '2026-03-08')).toEqual({
      date: '2026-03-08',
      sms: 1,
      email: 0,
    });
    expect(month.totals).toEqual({ verifications: 5, sms: 4, email: 1 });
    expect(month.funnel).toMatchObject({ codesSent: 8, verified: 0, conversionRate: 0 });

    const email = await report(owner, 'verificationMethod__in=email');
    expect(email.totals).toEqual({ verifications: 1, sms: 0, email: 1 });
    expect(email.funnel).toMatchObject({ codesSent: 2, verified: 0 });

    const lending = await report(owner, 'verifyFormCategory__in=Lending');
    expect(lending.byCategory).toEqual([{ category: 'Lending', verifications: 2 }]);
    expect(lending.funnel).toMatchObject({ codesSent: 5, verified: 0 });

    const oneForm = await report(owner, `verifyFormId__in=${cards.id}`);
    expect(oneForm.byForm).toEqual([{ verifyFormId: cards.id, verifyFormName: 'Cards', verifications: 2 }]);
    expect(oneForm.funnel).toMatchObject({ codesSent: 2, verified: 0 });

    // Top forms show the form's current name.
    await owner.c.patch(`/api/verify-forms/${loans.id}`, { name: 'Personal loans' });
    expect((await report(owner)).byForm[0]).toEqual({
      verifyFormId: loans.id,
      verifyFormName: 'Personal loans',
      verifications: 2,
    });

    // q: the same search as the log (here: by form name).
    const byName = await report(owner, 'q=cards');
    expect(byName.totals.verifications).toBe(2);
    expect(byName.funnel.codesSent).toBe(2);
  });

  it('the source filter (the dashboard shares the log’s filter bar) narrows the totals and the funnel alike', async () => {
    setClock(t, NOW);
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner, { name: 'Leads' });
    await verifyOnHostedPage(t, form);
    await verifyThroughApi(t, owner, form);
    // A code sent through the API and never checked.
    await insertAttempt(t, form, { source: 'api' });
    const both = await report(owner);
    expect(both.totals.verifications).toBe(2);
    expect(both.funnel.codesSent).toBe(3);
    const api = await report(owner, 'source=api');
    expect(api.totals).toEqual({ verifications: 1, sms: 1, email: 0 });
    expect(api.funnel).toMatchObject({ codesSent: 2, verified: 1, conversionRate: 0.5 });
    expect(api.byForm).toEqual([{ verifyFormId: form.id, verifyFormName: 'Leads', verifications: 1 }]);
    const hosted = await report(owner, 'source=hosted');
    expect(hosted.funnel).toMatchObject({ codesSent: 1, verified: 1, conversionRate: 1 });
    expect(await report(owner, 'source=nope')).toEqual(both);
  });

  it('live data only: test numbers’ verifications and codes (hosted page, test key) are left out of every number', async () => {
    setClock(t, NOW);
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner, { name: 'Leads' });
    await verifyOnHostedPage(t, form);
    await verifyThroughApi(t, owner, form);
    await insertAttempt(t, form, { deliveryStatus: 'failed', deliveryErrorCode: '30007' });
    const queries = [
      '',
      'tz=Asia/Kolkata',
      'tz=Asia/Kolkata&created__date__preset=custom&created__date__gte=2026-03-10&created__date__lte=2026-03-14',
      'created__date__preset=last30d',
      'verificationMethod__in=sms',
      'source=api',
      'q=leads',
      'q=api',
    ];
    const before = [];
    for (const query of queries) before.push(await report(owner, query));
    expect(before[0]).toMatchObject({
      totals: { verifications: 2, sms: 2, email: 0 },
      byForm: [{ verifyFormId: form.id, verifyFormName: 'Leads', verifications: 2 }],
      funnel: {
        codeRequested: 3,
        verified: 2,
        topFailureReasons: [{ errorCode: '30007', channel: 'sms', count: 1, reason: expect.anything() }],
      },
    });

    // Test data: test numbers on the hosted page and through a test key (each with its code), and test rows on a
    // Kolkata midnight's cut hour (Mar 14 18:40Z = Mar 15 00:10 IST) and in the minutes before it, at a range's
    // first minutes, by e-mail, failed with another error code.
    await verifyTestOnHostedPage(t, owner, form);
    await verifyTestOnHostedPage(t, owner, form);
    await verifyTestThroughApi(t, owner, form);
    for (const iso of ['2026-03-14T18:40:00Z', '2026-03-14T18:20:00Z', '2026-03-09T18:31:00Z']) {
      const at = { createdAt: new Date(iso), isTest: true };
      await insertVerification(t, form, { ...at, verificationMethod: 'email' });
      await insertVerification(t, form, at);
      await insertAttempt(t, form, { ...at, deliveryStatus: 'failed', deliveryErrorCode: '30003' });
      await insertAttempt(t, form, { ...at, method: 'email', status: 'verified', deliveryStatus: 'sent' });
    }
    const tested = await owner.c.get(
      `/api/verifications?account=${owner.accountId}&mode=test&created__date__preset=last30d`,
    );
    expect(tested.json<VerificationList>().count).toBe(9);
    for (const [i, query] of queries.entries()) {
      const { funnel, ...counts } = await report(owner, query);
      const { funnel: funnelBefore, ...countsBefore } = before[i] as VerificationReport;
      expect(counts, query).toEqual(countsBefore);
      // Page views are the page's, whoever opened it (a view knows no number yet): the test consumers' are counted.
      const withoutViews = (f: VerificationReport['funnel']) => ({
        ...f,
        pageOpened: null,
        byForm: f.byForm.map((form) => ({ ...form, pageOpened: null })),
      });
      expect(withoutViews(funnel), query).toEqual(withoutViews(funnelBefore));
    }
  });

  it('custom ranges: inclusive ends; open ends and reversed or overlong ranges are resolved and echoed', async () => {
    const { owner } = await world();
    const custom = async (gte?: string, lte?: string) =>
      (
        await report(
          owner,
          `created__date__preset=custom${gte ? `&created__date__gte=${gte}` : ''}${lte ? `&created__date__lte=${lte}` : ''}`,
        )
      ).range;
    const ny = 'America/New_York';
    const dstDay = await report(
      owner,
      'created__date__preset=custom&created__date__gte=2026-03-08&created__date__lte=2026-03-08',
    );
    expect(dstDay.perDay).toEqual([{ date: '2026-03-08', sms: 1, email: 0 }]);
    expect(dstDay.funnel).toMatchObject({ codesSent: 1, verified: 0 });
    // No end: today; no start: 30 days up to the end.
    expect(await custom('2026-03-10')).toEqual({ gte: '2026-03-10', lte: '2026-03-15', tz: ny });
    expect(await custom(undefined, '2026-01-31')).toEqual({ gte: '2026-01-02', lte: '2026-01-31', tz: ny });
    expect(await custom()).toEqual({ gte: '2026-02-14', lte: '2026-03-15', tz: ny });
    // Reversed: swapped. Longer than 366 days: the last 366 days up to the end.
    expect(await custom('2026-03-15', '2026-03-01')).toEqual({
      gte: '2026-03-01',
      lte: '2026-03-15',
      tz: ny,
    });
    expect(await custom('2020-01-01', '2026-03-15')).toEqual({
      gte: '2025-03-15',
      lte: '2026-03-15',
      tz: ny,
    });
    expect(
      (await report(owner, 'created__date__preset=custom&created__date__gte=2020-01-01')).perDay,
    ).toHaveLength(366);
  });

  it('local days of another zone; an empty report has zeros and no conversion rate', async () => {
    setClock(t, '2026-03-15T20:00:00Z'); // Mar 16 01:30 in Kolkata
    const owner = await newOwner(t.app);
    const form = await createForm(owner);
    await insertVerification(t, form, { createdAt: new Date('2026-03-15T18:30:00Z') }); // Mar 16 00:00 IST
    await insertVerification(t, form, { createdAt: new Date('2026-03-15T18:29:59Z') }); // Mar 15 23:59:59 IST
    const kolkata = await report(owner, 'tz=Asia/Kolkata');
    expect(kolkata.range).toEqual({ gte: '2026-03-10', lte: '2026-03-16', tz: 'Asia/Kolkata' });
    expect(kolkata.perDay.slice(-2)).toEqual([
      { date: '2026-03-15', sms: 1, email: 0 },
      { date: '2026-03-16', sms: 1, email: 0 },
    ]);
    // The funnel counts attempts: verifications with none behind them (inserted here) are not in it.
    expect(kolkata.funnel).toMatchObject({ codesSent: 0, verified: 0, conversionRate: null });

    const empty = await newOwner(t.app, 'Empty');
    const nothing = await report(empty);
    expect(nothing.totals).toEqual({ verifications: 0, sms: 0, email: 0 });
    expect(nothing.perDay).toHaveLength(7);
    expect(nothing.perDay.every((d) => d.sms === 0 && d.email === 0)).toBe(true);
    expect(nothing).toMatchObject({ byForm: [], byCategory: [] });
    expect(nothing.funnel).toEqual({
      pageOpened: 0,
      pageOpenedUnavailable: null,
      codeRequested: 0,
      delivered: 0,
      codeEntered: 0,
      verified: 0,
      codesSent: 0,
      conversionRate: null,
      byChannel: [
        { channel: 'sms', codeRequested: 0, delivered: 0, codeEntered: 0, verified: 0 },
        { channel: 'email', codeRequested: 0, delivered: 0, codeEntered: 0, verified: 0 },
      ],
      byForm: [],
      topFailureReasons: [],
    });
  });

  it('top forms are the 10 with the most verifications', async () => {
    setClock(t, NOW);
    const owner = await newOwner(t.app);
    const forms = [];
    for (let i = 0; i < 11; i++) forms.push(await createForm(owner, { name: `Form ${i}` }));
    // Form i gets i + 1 verifications: form 0 (one verification) is the one left out.
    for (const [i, form] of forms.entries()) for (let n = 0; n <= i; n++) await insertVerification(t, form);
    const body = await report(owner);
    expect(body.byForm.map((f) => f.verifications)).toEqual([11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
    expect(body.byForm.map((f) => f.verifyFormId)).not.toContain(forms[0]?.id);
    expect(body.byCategory).toEqual([{ category: 'Retail', verifications: 66 }]);
  });

  it('needs canViewReports (canSearchData is not enough); another account answers 404', async () => {
    const { owner } = await world();
    const searcher = await join(t.app, owner, { canSearchData: true });
    const denied = await searcher.c.get(`/api/verifications/report?account=${owner.accountId}`);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ detail: errorTexts.permissionDenied, MainCode_: 'permission_denied' });
    const viewer = await join(t.app, owner, { canViewReports: true });
    expect((await report({ c: viewer.c, accountId: owner.accountId })).totals.verifications).toBe(4);

    const stranger = await newOwner(t.app, 'Stranger');
    const other = await stranger.c.get(`/api/verifications/report?account=${owner.accountId}`);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual({ detail: 'Not found.', MainCode_: 'not_found' });
    expect((await report(stranger)).totals.verifications).toBe(0);
  });
});
