import { randomInt } from 'node:crypto';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { createCompany, expect, signUpVerified, test } from './fixtures.ts';

/**
 * The dashboard's numbers are the activity log's: verifications made through the real public API (test numbers, so
 * nothing is sent and the fixed code verifies), then the dashboard's totals, under its default filter and under a
 * method filter, equal the activity log's count for the same search params.
 */

async function csrf(request: APIRequestContext): Promise<string> {
  return ((await (await request.post('/api/auth/csrf')).json()) as { csrfToken: string }).csrfToken;
}

/** A fresh US mobile-or-fixed number (exchange 200–899 of area code 415 parses as valid). */
function newCellPhone(): string {
  return `+1415${200 + randomInt(700)}${String(randomInt(10_000)).padStart(4, '0')}`;
}

async function liveForm(
  request: APIRequestContext,
  headers: Record<string, string>,
  data: { account: number; name: string; category: string },
): Promise<{ id: number; publicId: string }> {
  const created = await request.post('/api/verify-forms', { headers, data });
  expect(created.status(), await created.text()).toBe(201);
  const form = (await created.json()) as { id: number; publicId: string };
  const live = await request.patch(`/api/verify-forms/${form.id}`, { headers, data: { isLive: true } });
  expect(live.status(), await live.text()).toBe(200);
  return form;
}

/**
 * One consumer through the public API with a test number of the account: a code is "sent" (counted in the funnel),
 * and unless `verify` is false, checked with the number's fixed code (a verification). A new number each time: one
 * number and form may only get a code every 30 s.
 */
async function consumerVerifies(
  request: APIRequestContext,
  headers: Record<string, string>,
  options: { account: number; publicId: string; method: 'sms' | 'email'; verify?: boolean },
): Promise<void> {
  const cellPhone = newCellPhone();
  const code = String(100_000 + randomInt(900_000));
  const added = await request.post('/api/test-phone-numbers', {
    headers,
    data: { account: options.account, cellPhone, code },
  });
  expect(added.status(), await added.text()).toBe(201);
  const sent = await request.post(`/api/public/verify-forms/${options.publicId}/send-code`, {
    headers,
    data: {
      cellPhone,
      method: options.method,
      ...(options.method === 'email' ? { email: `consumer-${randomInt(1e9)}@example.test` } : {}),
      externalRefId: `E2E-${randomInt(1e6)}`,
    },
  });
  expect(sent.status(), await sent.text()).toBe(201);
  if (options.verify === false) return;
  const { attemptId } = (await sent.json()) as { attemptId: string };
  const checked = await request.post(`/api/public/attempts/${attemptId}/check`, { headers, data: { code } });
  expect(checked.status(), await checked.text()).toBe(200);
}

/** The value of one headline number ("Verifications" → "4"). */
function stat(page: Page, label: string): Locator {
  return page
    .getByRole('region', { name: 'Totals' })
    .locator('dt', { hasText: new RegExp(`^${label}$`) })
    .locator('xpath=following-sibling::dd[1]');
}

/**
 * The activity log's total for the dashboard's current search params (the log reads the same filter names). The
 * dashboard keeps its default preset out of the URL, and the log's default is all time: it is written out.
 */
async function activityLogCount(page: Page): Promise<string> {
  const search = new URL(page.url()).searchParams;
  if (!search.has('created__date__preset')) search.set('created__date__preset', 'last7d');
  const log = await page.context().newPage();
  await log.goto(`/activity-log/?${search}`);
  const showing = log.getByText(/^Showing \d+–\d+ of \d+$/);
  await expect(showing).toBeVisible();
  const count = (await showing.textContent())?.match(/of (\d+)$/)?.[1] ?? '';
  await log.close();
  return count;
}

test('dashboard numbers match the log', async ({ page, user }) => {
  await signUpVerified(page.request, user);
  const { account } = await createCompany(page.request, `Report ${user.lastName}`);
  const headers = { 'X-CSRFToken': await csrf(page.request) };
  const loans = await liveForm(page.request, headers, {
    account: account.id,
    name: 'Loan application',
    category: 'Lending',
  });
  const news = await liveForm(page.request, headers, {
    account: account.id,
    name: 'Newsletter',
    category: 'Marketing',
  });
  // Not live: it must not be listed among the active forms.
  const draft = await page.request.post('/api/verify-forms', {
    headers,
    data: { account: account.id, name: 'Draft form', category: 'Lending' },
  });
  expect(draft.status()).toBe(201);

  // Loans: 3 by SMS and one code never entered; newsletter: 1 by e-mail. 5 codes sent, 4 verified.
  for (let i = 0; i < 3; i++)
    await consumerVerifies(page.request, headers, {
      account: account.id,
      publicId: loans.publicId,
      method: 'sms',
    });
  await consumerVerifies(page.request, headers, {
    account: account.id,
    publicId: loans.publicId,
    method: 'sms',
    verify: false,
  });
  await consumerVerifies(page.request, headers, {
    account: account.id,
    publicId: news.publicId,
    method: 'email',
  });

  await page.goto('/dashboard/');
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await expect(stat(page, 'Verifications')).toHaveText('4');
  await expect(stat(page, 'By SMS')).toHaveText('3');
  await expect(stat(page, 'By e-mail')).toHaveText('1');
  await expect(stat(page, 'Codes sent')).toHaveText('5');
  await expect(stat(page, 'Conversion rate')).toHaveText('80%');

  // The chart (named, with its numbers in a table), the funnel, the top forms and the live forms.
  await expect(page.getByRole('img', { name: 'Verifications per day by method' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Verifications per day' })).toBeAttached();
  const topForms = page.getByRole('list', { name: 'Top forms' });
  await expect(topForms.getByRole('listitem').first()).toContainText('Loan application');
  await expect(topForms.getByRole('listitem').first()).toContainText('3');
  const active = page.getByRole('list', { name: 'Active forms' });
  await expect(active.getByRole('link')).toHaveText(['Loan application', 'Newsletter']);
  await expect(active.getByRole('link', { name: 'Loan application' })).toHaveAttribute(
    'href',
    `/forms/${loans.id}`,
  );

  // The same filters in the activity log: the default (last 7 days) …
  expect(await activityLogCount(page)).toBe('4');

  // … and by SMS only, chosen in the dashboard's filter bar (the URL carries it to the log).
  await page.getByRole('combobox', { name: 'Method' }).click();
  await page.getByRole('option', { name: 'SMS' }).click();
  await expect(page).toHaveURL(/verificationMethod__in/);
  await expect(stat(page, 'Verifications')).toHaveText('3');
  await expect(stat(page, 'By e-mail')).toHaveText('0');
  expect(await activityLogCount(page)).toBe('3');

  // The preset writes to the URL and changes nothing here: everything happened today.
  await page.getByRole('combobox', { name: 'Created' }).click();
  await page.getByRole('option', { name: 'Last 30 days' }).click();
  await expect(page).toHaveURL(/created__date__preset=last30d/);
  await expect(stat(page, 'Verifications')).toHaveText('3');
  expect(await activityLogCount(page)).toBe('3');
});

test('a new account is shown the first steps', async ({ page, user }) => {
  await signUpVerified(page.request, user);
  await createCompany(page.request, `Fresh ${user.lastName}`);
  await page.goto('/dashboard/');
  await expect(page.getByRole('heading', { name: 'No verifications yet' })).toBeVisible();
  await page.getByRole('link', { name: 'Go to Forms' }).click();
  await expect(page).toHaveURL(/\/forms\/$/);
});
