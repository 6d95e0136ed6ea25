import {
  createCompany,
  createLiveForm,
  createVerifications,
  expect,
  signUpVerified,
  test,
} from './fixtures.ts';

/**
 * Issue #33 item 1 (ADR 29): test mode is a separate world. A consumer verifies a real number (live) and the owner's
 * test number is verified too (test data): the activity log shows the live one only, until "View test data" asks for
 * test data, which is then marked ("Test" on the row, a "Viewing test data" banner) and kept in the link; the
 * attempts view follows the same switch.
 */
test('the activity log hides test data by default and shows it, marked, when asked', async ({
  page,
  user,
}) => {
  test.setTimeout(120_000);
  await signUpVerified(page.request, user);
  const { account } = await createCompany(page.request, `Modes ${user.lastName}`);
  const form = await createLiveForm(page.request, {
    account: account.id,
    name: 'Loans',
    category: 'Lending',
  });
  await createVerifications(page.request, {
    account: account.id,
    specs: [{ publicId: form.publicId, externalRefId: 'LIVE-1' }],
  });
  await createVerifications(page.request, {
    account: account.id,
    mode: 'test',
    specs: [{ publicId: form.publicId, externalRefId: 'TEST-1' }],
  });

  await page.goto('/activity-log/');
  const table = page.getByRole('table', { name: 'Verifications' });
  const rows = table.locator('tbody tr');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('LIVE-1');
  await expect(table).not.toContainText('TEST-1');
  await expect(page.getByText('Viewing test data')).toHaveCount(0);

  await page.getByRole('switch', { name: 'View test data' }).check();
  await expect(page).toHaveURL(/mode=test/);
  await expect(page.getByRole('status').filter({ hasText: 'Viewing test data' })).toBeVisible();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('TEST-1');
  await expect(rows.first().getByText('Test', { exact: true })).toBeVisible();
  await expect(table).not.toContainText('LIVE-1');

  // The detail of the test verification is marked too.
  await rows.first().getByRole('link').first().click();
  await expect(page.getByRole('heading', { name: 'Verification', level: 1 })).toBeVisible();
  await expect(page.getByText('Test', { exact: true })).toBeVisible();
  await page.getByRole('link', { name: 'Back to Activity Log' }).click();
  await expect(page).toHaveURL(/mode=test/);

  // The attempts view keeps the mode: the test code only, marked.
  await page.getByRole('link', { name: 'Attempts' }).click();
  await expect(page).toHaveURL(/attempts.*mode=test/);
  await expect(page.getByText('Viewing test data')).toBeVisible();
  await expect(page.getByText('Showing 1–1 of 1')).toBeVisible();
  await expect(page.locator('main').getByText('Test', { exact: true })).toBeVisible();

  // Back to live data: the real consumer's code, unmarked.
  await page.getByRole('switch', { name: 'View test data' }).uncheck();
  await expect(page).not.toHaveURL(/mode=test/);
  await expect(page.getByText('Viewing test data')).toHaveCount(0);
  await expect(page.getByText('Showing 1–1 of 1')).toBeVisible();
  await expect(page.locator('main').getByText('Test', { exact: true })).toHaveCount(0);
});
