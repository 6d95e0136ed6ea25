import type { VerificationAttemptList, VerificationList } from '@veriform/contracts';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test-support/app.ts';
import { createPublicForm } from '../../test-support/public-verify.ts';
import { newOwner, type Owner } from '../../test-support/teams.ts';
import {
  insertAttempt,
  insertVerification,
  verifyOnHostedPage,
  verifyTestThroughApi,
} from './test-helpers.ts';

/**
 * Issue #33 item 1 (ADR 29), the dashboard's side: the activity log, its CSV export and the attempts view show live
 * objects unless `mode=test` is asked, as Stripe's dashboard does; a member still opens a test verification's detail.
 * The totals come from counts kept of every row (test ones included), so each view's count is checked against its
 * rows, with and without dates, a search and a source.
 */

const t = useTestApp();

const DAY = 86_400_000;

async function world() {
  const owner = await newOwner(t.app);
  const form = await createPublicForm(owner, { name: 'Loans' });
  const live = await verifyOnHostedPage(t, form);
  const test = await verifyTestThroughApi(t, owner, form, 'ref-test');
  // Older rows, on other UTC days (the counts' whole days and the partial ends).
  const oldLive = await insertVerification(t, form, {
    createdAt: new Date(t.clock.now().getTime() - 3 * DAY),
  });
  const oldTest = await insertVerification(t, form, {
    createdAt: new Date(t.clock.now().getTime() - 3 * DAY),
    isTest: true,
  });
  await insertAttempt(t, form, { createdAt: new Date(t.clock.now().getTime() - 3 * DAY), isTest: true });
  return { owner, form, live, test, oldLive, oldTest };
}

const list = async (owner: Owner, query = '') => {
  const response = await owner.c.get(`/api/verifications?account=${owner.accountId}&pageSize=100&${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<VerificationList>();
};

const attempts = async (owner: Owner, query = '') => {
  const response = await owner.c.get(
    `/api/verification-attempts?account=${owner.accountId}&pageSize=100&${query}`,
  );
  expect(response.statusCode, response.body).toBe(200);
  return response.json<VerificationAttemptList>();
};

describe('the activity log: live unless asked', () => {
  it('lists live verifications by default and test ones with mode=test; each count is its rows, whatever the filters', async () => {
    const { owner, form, live, test, oldLive, oldTest } = await world();
    const byDefault = await list(owner);
    expect(new Set(byDefault.results.map((v) => v.id))).toEqual(new Set([live.id, oldLive.id]));
    expect(byDefault.count).toBe(2);
    for (const v of byDefault.results) expect(v.isTest).toBe(false);
    expect((await list(owner, 'mode=live')).count).toBe(2);
    // A bad value is live, as every bad filter falls back.
    expect((await list(owner, 'mode=junk')).count).toBe(2);

    const tests = await list(owner, 'mode=test');
    expect(new Set(tests.results.map((v) => v.id))).toEqual(new Set([test.id, oldTest.id]));
    expect(tests.count).toBe(2);
    for (const v of tests.results) expect(v.isTest).toBe(true);

    // The counts' paths: all time (total counts), a date range (daily counts and partial days), a form, a source, a
    // search: each count agrees with the rows listed.
    for (const filters of [
      'created__date__preset=last7d&tz=Asia/Kolkata',
      'created__date__preset=today&tz=UTC',
      `verifyFormId__in=${form.id}`,
      'source=api',
      'source=hosted',
      'q=ref-test',
      'q=Loans',
      'verificationMethod__in=sms',
    ]) {
      for (const mode of ['live', 'test']) {
        const page = await list(owner, `${filters}&mode=${mode}`);
        expect(page.count, `${filters} ${mode}`).toBe(page.results.length);
        for (const v of page.results) expect(v.isTest, `${filters} ${mode}`).toBe(mode === 'test');
      }
    }
    expect((await list(owner, 'q=ref-test')).count).toBe(0);
    expect((await list(owner, 'q=ref-test&mode=test')).count).toBe(1);
  });

  it('a member still opens a test verification (marked isTest); the CSV export is live unless asked', async () => {
    const { owner, test, live } = await world();
    const detail = await owner.c.get(`/api/verifications/${test.id}?account=${owner.accountId}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.json()).toMatchObject({ id: test.id, isTest: true });

    const csv = async (query: string) => {
      const response = await owner.c.get(`/api/verifications/export-csv?account=${owner.accountId}&${query}`);
      expect(response.statusCode).toBe(200);
      return { rows: response.body.trim().split('\n').length - 1, total: response.headers['x-total-count'] };
    };
    expect(await csv('')).toEqual({ rows: 2, total: '2' });
    expect(await csv('mode=test')).toEqual({ rows: 2, total: '2' });
    const liveCsv = await owner.c.get(`/api/verifications/export-csv?account=${owner.accountId}`);
    expect(liveCsv.body).toContain(live.cellPhone.slice(-4));
    expect(liveCsv.body).not.toContain('ref-test');
    expect(
      (await owner.c.get(`/api/verifications/export-csv?account=${owner.accountId}&mode=test`)).body,
    ).toContain('ref-test');
  });
});

describe('the attempts view: live unless asked', () => {
  it('lists and counts live attempts by default, test ones with mode=test, in its export too', async () => {
    const { owner } = await world();
    const byDefault = await attempts(owner);
    expect(byDefault.count).toBe(byDefault.results.length);
    expect(byDefault.count).toBe(1);
    for (const a of byDefault.results) expect(a.isTest).toBe(false);
    const tests = await attempts(owner, 'mode=test');
    // The test key's code and the older test attempt.
    expect(tests.count).toBe(2);
    expect(tests.results).toHaveLength(2);
    for (const a of tests.results) expect(a.isTest).toBe(true);
    for (const filters of ['created__date__preset=last7d&tz=Asia/Kolkata', 'source=api', 'q=ref-test']) {
      for (const mode of ['live', 'test']) {
        const page = await attempts(owner, `${filters}&mode=${mode}`);
        expect(page.count, `${filters} ${mode}`).toBe(page.results.length);
        for (const a of page.results) expect(a.isTest).toBe(mode === 'test');
      }
    }
    const exported = async (query: string) =>
      (await owner.c.get(`/api/verification-attempts/export-csv?account=${owner.accountId}&${query}`)).body
        .trim()
        .split('\n').length - 1;
    expect(await exported('')).toBe(1);
    expect(await exported('mode=test')).toBe(2);
  });
});
