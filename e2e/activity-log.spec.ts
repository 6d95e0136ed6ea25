import { readFile } from 'node:fs/promises';
import {
  createCompany,
  createLiveForm,
  createVerifications,
  expect,
  signUpVerified,
  test,
} from './fixtures.ts';

/**
 * Journey 4 (DESIGN §1): the owner finds verifications in the activity log — filters, sorts, pages, opens one and
 * comes back to the same view — and exports what the filters show as CSV. The data is made through the real app:
 * forms by the API, verifications by the public API with test numbers (fixtures.ts).
 */
// A browser far from the server's fallback zone (America/New_York): the export's times must be the user's.
test.use({ timezoneId: 'Asia/Kolkata' });

test('an owner filters, sorts and pages the activity log, opens a verification, comes back, and exports CSV', async ({
  page,
  user,
}) => {
  test.setTimeout(120_000);
  await signUpVerified(page.request, user);
  const { account } = await createCompany(page.request, `Log ${user.lastName}`);
  const loans = await createLiveForm(page.request, {
    account: account.id,
    name: 'Loans',
    category: 'Lending',
  });
  const signup = await createLiveForm(page.request, {
    account: account.id,
    name: 'Signup',
    category: 'Onboarding',
  });
  const loanRefs = Array.from({ length: 13 }, (_, i) => `L-${String(i + 1).padStart(2, '0')}`);
  const made = await createVerifications(page.request, {
    account: account.id,
    specs: [
      ...loanRefs.map((ref, i) => ({
        publicId: loans.publicId,
        externalRefId: ref,
        method: i % 4 === 3 ? ('email' as const) : ('sms' as const),
      })),
      ...['S-01', 'S-02', 'S-03'].map((ref) => ({ publicId: signup.publicId, externalRefId: ref })),
    ],
  });
  const phoneOf = (ref: string) => made.find((v) => v.externalRefId === ref)?.cellPhone ?? '';

  await page.goto('/activity-log/');
  const table = page.getByRole('table', { name: 'Verifications' });
  const rows = table.locator('tbody tr');
  await expect(page.getByText('Showing 1–10 of 16')).toBeVisible();
  await expect(rows).toHaveCount(10);
  // Newest first by default: the last one made is on top.
  await expect(rows.first()).toContainText('S-03');
  await expect(table.getByRole('columnheader', { name: 'Created' })).toHaveAttribute(
    'aria-sort',
    'descending',
  );

  // More rows per page: all 16 on one page, no pager; then back to 10.
  await page.getByRole('button', { name: 'Page 2' }).waitFor();
  await page.getByRole('combobox', { name: 'Rows per page' }).click();
  await page.getByRole('option', { name: '25', exact: true }).click();
  await expect(page.getByText('Showing 1–16 of 16')).toBeVisible();
  await expect(rows).toHaveCount(16);
  await expect(page).toHaveURL(/pageSize=25/);
  await expect(page.getByRole('button', { name: 'Page 2' })).toHaveCount(0);
  await page.getByRole('combobox', { name: 'Rows per page' }).click();
  await page.getByRole('option', { name: '10', exact: true }).click();
  await expect(rows).toHaveCount(10);
  await expect(page.getByText('Showing 1–10 of 16')).toBeVisible();

  // Filter by form.
  await page.getByLabel('Forms').click();
  await page.getByRole('option', { name: 'Loans' }).click();
  await page.keyboard.press('Escape');
  await expect(page.getByText('Showing 1–10 of 13')).toBeVisible();
  await expect(page).toHaveURL(/verifyFormId__in=/);
  await expect(table.getByText('S-01')).toHaveCount(0);

  // Sort by External ref, ascending then descending then ascending again.
  await table.getByRole('button', { name: 'External ref' }).click();
  await expect(table.getByRole('columnheader', { name: 'External ref' })).toHaveAttribute(
    'aria-sort',
    'ascending',
  );
  await expect(rows.first()).toContainText('L-01');
  await expect(page).toHaveURL(/o=externalRefId/);
  await table.getByRole('button', { name: 'External ref' }).click();
  await expect(table.getByRole('columnheader', { name: 'External ref' })).toHaveAttribute(
    'aria-sort',
    'descending',
  );
  await expect(rows.first()).toContainText('L-13');
  await table.getByRole('button', { name: 'External ref' }).click();
  await expect(rows.first()).toContainText('L-01');

  // Page 2.
  await page.getByRole('button', { name: 'Page 2' }).click();
  await expect(page.getByText('Showing 11–13 of 13')).toBeVisible();
  await expect(rows).toHaveCount(3);
  await expect(rows.first()).toContainText('L-11');
  await expect(page).toHaveURL(/pageNumber=2/);
  const logUrl = page.url();

  // Open a row: the verification and its evidence.
  await rows.filter({ hasText: 'L-12' }).getByRole('link').click();
  await expect(page).toHaveURL(
    new RegExp(`/activity-log/${made.find((v) => v.externalRefId === 'L-12')?.verificationId}\\?`),
  );
  await expect(page.getByRole('heading', { name: 'Verification', level: 1 })).toBeVisible();
  const evidence = page.getByRole('region', { name: 'Evidence' });
  await expect(evidence.getByText('Attempts')).toBeVisible();
  await expect(page.getByText(phoneOf('L-12'), { exact: true })).toBeVisible();
  await expect(page.getByText('L-12', { exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Loans' })).toBeVisible();
  // A live verification (a real number): no Test badge (test data has its own journey, test-mode.spec.ts).
  await expect(page.getByText('Test', { exact: true })).toHaveCount(0);

  // Back to the log: the same filters, sort and page.
  await page.getByRole('link', { name: 'Back to Activity Log' }).click();
  await expect(page.getByText('Showing 11–13 of 13')).toBeVisible();
  expect(new URL(page.url()).search).toBe(new URL(logUrl).search);
  await expect(rows.first()).toContainText('L-11');
  await expect(page.getByRole('search').getByText('Loans')).toBeVisible();
  // The browser's Back button does the same.
  await rows.filter({ hasText: 'L-13' }).getByRole('link').click();
  await expect(page.getByRole('heading', { name: 'Verification', level: 1 })).toBeVisible();
  await page.goBack();
  await expect(page.getByText('Showing 11–13 of 13')).toBeVisible();
  expect(new URL(page.url()).search).toBe(new URL(logUrl).search);

  // Search narrows it further (and goes back to page 1).
  await page.getByRole('searchbox', { name: 'Search' }).fill('L-1');
  await expect(page.getByText('Showing 1–4 of 4')).toBeVisible();
  await expect(page).toHaveURL(/q=/);

  // Export what the log shows: the same filters and sort, every row, as a file.
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/\.csv$/);
  await expect(page.getByText('Export ready')).toBeVisible();
  const path = await download.path();
  const text = (await readFile(path, 'utf8')).replace(/^\uFEFF/, '');
  const lines = text.trim().split(/\r?\n/);
  expect(lines[0]).toBe(
    'ID,Cell phone,External ref,Form ID,Form name,Category,Method,Test,Created,Source,Consent version,Consent hash,Redacted,Revoked at,Reassigned',
  );
  expect(lines).toHaveLength(5);
  const refs = lines.slice(1).map((line) => line.split(',')[2]);
  expect(refs).toEqual(['L-10', 'L-11', 'L-12', 'L-13']);
  for (const line of lines.slice(1)) expect(line).toContain(',Loans,Lending,');
  expect(lines[1]).toContain(phoneOf('L-10'));
  // Created in the browser's zone, with its offset, though the view is "all time"; made on the hosted page; seeded
  // without a consent text, so its two consent columns are empty, as are Redacted, Revoked at and Reassigned (nothing
  // was, and no number was checked).
  for (const line of lines.slice(1))
    expect(line).toMatch(/,\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} \+05:30,Hosted page,,,,,$/);
});
