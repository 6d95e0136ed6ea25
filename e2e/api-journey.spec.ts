import {
  createCompany,
  createLiveForm,
  createVerifications,
  expect,
  signUpVerified,
  test,
} from './fixtures.ts';

/**
 * Issue #15's proof: an owner makes a test key in Settings → API keys and copies it; a script (Playwright's own HTTP
 * client: no cookies, no CSRF token) verifies one of the account's test numbers through API v1; back in the browser
 * the activity log shows that verification with Source "API", and the Source filter tells it from one made on the
 * hosted page.
 */
test('a script verifies a test number with a copied test key, and the activity log shows it with source API', async ({
  page,
  request,
  user,
}) => {
  await signUpVerified(page.request, user);
  const { account } = await createCompany(page.request, `API Journey ${user.lastName}`);
  // Making a live form in the page is forms.spec's journey; here it is only the ground the script stands on.
  const form = await createLiveForm(page.request, { account: account.id, name: 'Lead check' });
  // One made as a consumer does, on the hosted page: what the Source filter must tell apart.
  // Test data, as the script's test-key verification is (issue #33): both show in the log's test view.
  const [hosted] = await createVerifications(page.request, {
    account: account.id,
    mode: 'test',
    specs: [{ publicId: form.publicId, externalRefId: 'web-lead-1' }],
  });
  if (!hosted) throw new Error('no hosted verification');

  // The test number the script will verify, added in Settings like an integrator preparing a dry run.
  await page.goto('/settings/company-info');
  await page.getByRole('textbox', { name: 'Phone number' }).fill('(415) 555-0177');
  await page.getByRole('textbox', { name: 'Code' }).fill('731642');
  await page.getByRole('button', { name: 'Add test number' }).click();
  await expect(page.getByText('Test number added')).toBeVisible();

  // A test key allowed to write verifications, copied from the dialog that shows it once.
  await page.goto('/settings/api-keys');
  await page.getByRole('button', { name: 'Create API key' }).click();
  const create = page.getByRole('dialog', { name: 'Create API key' });
  await create.getByLabel('Name').fill('CRM lead flow');
  await expect(create.getByRole('radio', { name: 'Test' })).toBeChecked();
  await create.getByRole('checkbox', { name: 'verifications:write' }).check();
  await create.getByRole('button', { name: 'Create key' }).click();
  const shown = page.getByRole('dialog', { name: 'Your new API key' });
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await shown.getByRole('button', { name: 'Copy key' }).click();
  await expect(shown.getByRole('button', { name: 'Copied' })).toBeVisible();
  const key = await page.evaluate<string>('navigator.clipboard.readText()');
  expect(key).toMatch(/^vf_test_[0-9A-Za-z]{40,}$/);
  await shown.getByRole('button', { name: 'Done' }).click();

  // The customer's script: start a verification to the test number, then check the number's fixed code.
  const auth = { Authorization: `Bearer ${key}` };
  const started = await request.post('/api/v1/verifications', {
    headers: auth,
    data: { formId: form.id, to: '+14155550177', externalRefId: 'crm-lead-42' },
  });
  expect(started.status(), await started.text()).toBe(201);
  const verification = (await started.json()) as {
    id: string;
    status: string;
    source: string;
    test: boolean;
  };
  expect(verification).toMatchObject({ status: 'pending', source: 'api', test: true });
  const checked = await request.post(`/api/v1/verifications/${verification.id}/check`, {
    headers: auth,
    data: { code: '731642' },
  });
  expect(checked.status(), await checked.text()).toBe(200);
  expect(await checked.json()).toMatchObject({ status: 'approved', verification: { status: 'approved' } });

  // Back in the browser: both verifications in the log's test data, each with its source.
  await page.goto('/activity-log/?mode=test');
  const table = page.getByRole('table', { name: 'Verifications' });
  const apiRow = table.getByRole('row').filter({ hasText: 'crm-lead-42' });
  const hostedRow = table.getByRole('row').filter({ hasText: 'web-lead-1' });
  await expect(apiRow).toContainText('+1 (415) 555-0177');
  await expect(apiRow.getByRole('cell', { name: 'API', exact: true })).toBeVisible();
  await expect(hostedRow.getByRole('cell', { name: 'Hosted page', exact: true })).toBeVisible();

  // Source API: the script's verification only; Hosted page: the consumer's only. The filter is in the URL.
  const source = page.getByRole('combobox', { name: 'Source' });
  await source.click();
  await page.getByRole('option', { name: 'API', exact: true }).click();
  await expect(page).toHaveURL(/[?&]source=api/);
  await expect(page.getByText('Showing 1–1 of 1')).toBeVisible();
  await expect(apiRow).toBeVisible();
  await expect(hostedRow).toHaveCount(0);

  await source.click();
  await page.getByRole('option', { name: 'Hosted page' }).click();
  await expect(page).toHaveURL(/[?&]source=hosted/);
  await expect(hostedRow).toBeVisible();
  await expect(apiRow).toHaveCount(0);

  // The detail of the script's verification says where it came from.
  await page.goto('/activity-log/?source=api&mode=test');
  await apiRow.getByRole('link', { name: '+1 (415) 555-0177' }).click();
  await expect(page.getByRole('heading', { name: '+1 (415) 555-0177' })).toBeVisible();
  await expect(page.getByText('Source', { exact: true })).toBeVisible();
  expect(
    await page.getByText('Source', { exact: true }).evaluate((dt) => dt.nextElementSibling?.textContent),
  ).toBe('API');
});
