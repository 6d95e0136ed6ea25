import { randomInt } from 'node:crypto';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import {
  createCompany,
  createLiveForm,
  createVerifications,
  expect,
  signUpVerified,
  test,
} from './fixtures.ts';
import { expectNoSidewaysScroll } from './layout';

/**
 * The dashboard's numbers are the activity log's: verifications made through the real public API (the fixtures' test
 * numbers, so nothing is sent and the fixed code verifies), then the dashboard's totals, under its default filter and under a
 * method filter, equal the activity log's count for the same search params.
 */

async function csrf(request: APIRequestContext): Promise<string> {
  return ((await (await request.post('/api/auth/csrf')).json()) as { csrfToken: string }).csrfToken;
}

/**
 * A code sent and never entered (a funnel step without its verification), through a new test number of the account:
 * nothing is sent. The fixtures' `createVerifications` always completes the check, so this one step is local.
 */
async function codeSentNotVerified(
  request: APIRequestContext,
  options: { account: number; publicId: string },
): Promise<void> {
  const headers = { 'X-CSRFToken': await csrf(request) };
  // Exchange 200–899 of area code 415 parses as valid, and stays clear of the fixtures' 555-01xx test lines. A real
  // number (the code lands in the development outbox): live data, which the report counts (issue #33).
  const cellPhone = `+1415${200 + randomInt(700)}${String(randomInt(10_000)).padStart(4, '0')}`;
  const sent = await request.post(`/api/public/verify-forms/${options.publicId}/send-code`, {
    headers,
    data: { cellPhone, method: 'sms' },
  });
  expect(sent.status(), await sent.text()).toBe(201);
}

/** The value of one headline number ("Verifications" → "4"). */
function stat(page: Page, label: string): Locator {
  return page
    .getByRole('region', { name: 'Totals' })
    .locator('dt', { hasText: new RegExp(`^${label}$`) })
    .locator('xpath=following-sibling::dd[1]');
}

/** One step of the funnel ("Code requested"): its label, its count and its share of the step before, as text. */
function funnelStep(page: Page, label: string): Locator {
  return page
    .getByRole('region', { name: 'Funnel' })
    .getByRole('list', { name: 'Funnel steps' })
    .getByRole('listitem')
    .filter({ hasText: label });
}

/**
 * The activity log's total for the dashboard's filters, through the dashboard's own link (it writes the preset out:
 * the log's default range is all time), opened beside the dashboard.
 */
async function activityLogCount(page: Page): Promise<string> {
  const link = page.getByRole('link', { name: 'See these verifications in the activity log' });
  const href = await link.getAttribute('href');
  expect(href).toContain('created__date__preset=');
  const log = await page.context().newPage();
  await log.goto(href ?? '');
  const showing = log.getByText(/^Showing \d+–\d+ of \d+$/);
  await expect(showing).toBeVisible();
  const count = (await showing.textContent())?.match(/of (\d+)$/)?.[1] ?? '';
  await log.close();
  return count;
}

test('dashboard numbers match the log', async ({ page, user }) => {
  await signUpVerified(page.request, user);
  const { account } = await createCompany(page.request, `Report ${user.lastName}`);
  const loans = await createLiveForm(page.request, {
    account: account.id,
    name: 'Loan application',
    category: 'Lending',
  });
  const news = await createLiveForm(page.request, {
    account: account.id,
    name: 'Newsletter',
    category: 'Marketing',
  });
  // Not live: it must not be listed among the active forms.
  const draft = await page.request.post('/api/verify-forms', {
    headers: { 'X-CSRFToken': await csrf(page.request) },
    data: { account: account.id, name: 'Draft form', category: 'Lending' },
  });
  expect(draft.status()).toBe(201);

  // Loans: 3 by SMS and one code never entered; newsletter: 1 by e-mail. 5 codes sent, 4 verified.
  await createVerifications(page.request, {
    account: account.id,
    specs: [
      { publicId: loans.publicId },
      { publicId: loans.publicId },
      { publicId: loans.publicId },
      { publicId: news.publicId, method: 'email' },
    ],
  });
  await codeSentNotVerified(page.request, { account: account.id, publicId: loans.publicId });

  await page.goto('/dashboard/');
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await expect(stat(page, 'Verifications')).toHaveText('4');
  await expect(stat(page, 'By SMS')).toHaveText('3');
  await expect(stat(page, 'By e-mail')).toHaveText('1');
  await expect(stat(page, 'Codes sent')).toHaveText('5');
  await expect(stat(page, 'Conversion rate')).toHaveText('80%');

  // The funnel follows the 5 codes: 4 verified; no delivery failed (the development outbox takes every message).
  const funnel = page.getByRole('region', { name: 'Funnel' });
  await expect(funnelStep(page, 'Code requested').getByText('5', { exact: true })).toBeVisible();
  await expect(funnelStep(page, 'Verified').getByText('4', { exact: true })).toBeVisible();
  await expect(funnel.getByText('Conversion rate:', { exact: false })).toContainText('80%');
  await expect(funnel.getByText('No failed deliveries in this range.')).toBeVisible();
  // One channel's line: the newsletter's e-mail, verified; page views know no channel.
  await funnel.getByText('E-mail', { exact: true }).click();
  await expect(funnelStep(page, 'Code requested').getByText('1', { exact: true })).toBeVisible();
  await expect(funnelStep(page, 'Verified').getByText('1', { exact: true })).toBeVisible();
  await expect(funnelStep(page, 'Page opened')).toContainText('Not counted by channel');
  await funnel.getByText('All', { exact: true }).click();
  await expect(funnelStep(page, 'Code requested').getByText('5', { exact: true })).toBeVisible();

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
  // A channel filter: the funnel has no page-view count, and says why.
  await expect(funnelStep(page, 'Code requested').getByText('4', { exact: true })).toBeVisible();
  await expect(funnelStep(page, 'Page opened')).toContainText('Not counted by channel');
  expect(await activityLogCount(page)).toBe('3');

  // The preset writes to the URL and changes nothing here: everything happened today.
  await page.getByRole('combobox', { name: 'Created' }).click();
  await page.getByRole('option', { name: 'Last 30 days' }).click();
  await expect(page).toHaveURL(/created__date__preset=last30d/);
  await expect(stat(page, 'Verifications')).toHaveText('3');
  expect(await activityLogCount(page)).toBe('3');

  // At phone width the funnel's steps and switch fit: nothing scrolls sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(funnelStep(page, 'Verified')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Funnel' }).getByText('SMS', { exact: true })).toBeVisible();
  await expectNoSidewaysScroll(page);
});

test('a new account is shown the first steps', async ({ page, user }) => {
  await signUpVerified(page.request, user);
  await createCompany(page.request, `Fresh ${user.lastName}`);
  await page.goto('/dashboard/');
  await expect(page.getByRole('heading', { name: 'No verifications yet' })).toBeVisible();
  await page.getByRole('link', { name: 'Go to Forms' }).click();
  await expect(page).toHaveURL(/\/forms\/$/);
});
