import { readFile } from 'node:fs/promises';
import { axeViolations } from './axe.ts';
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
 * Issue #37 item 3: a person asks the customer to erase what it keeps about their number. The owner files the erasure
 * request in Settings › Privacy requests, sees what it matches (the number's verification), carries it out, sees it
 * answered, and downloads the receipt. At desktop and phone width, axe clean (WCAG 2.1 AA) on each screen and with its
 * dialogs open, and nothing wider than the screen. Then an access request's bundle (a ZIP), and an erasure of two
 * numbers, one under a legal hold: that one is restricted instead, and the answer names the hold's reason.
 */
for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('an owner files an erasure request for a number, carries it out and downloads the receipt', async ({
      page,
      user,
    }) => {
      test.slow();
      await signUpVerified(page.request, user);
      const membership = await createCompany(page.request, `Privacy ${user.lastName}`);
      const form = await createLiveForm(page.request, {
        account: membership.account.id,
        name: 'Quote request',
      });
      const [verification] = await createVerifications(page.request, {
        account: membership.account.id,
        specs: [{ publicId: form.publicId }],
      });
      if (!verification) throw new Error('no verification made');

      await page.goto('/settings/privacy-requests');
      await expect(page.getByRole('tab', { name: 'Privacy requests' })).toHaveAttribute(
        'aria-selected',
        'true',
      );
      await expect(page.getByText('No privacy requests yet')).toBeVisible();
      await expectNoSidewaysScroll(page);
      expect(await axeViolations(page)).toEqual([]);

      // Filed for the verified number, received today.
      await page.getByRole('button', { name: 'File a request' }).click();
      const dialog = page.getByRole('dialog', { name: 'File a privacy request' });
      await dialog.getByRole('radio', { name: /Erasure/ }).check();
      await dialog.getByLabel('Law').selectOption('gdpr');
      await dialog.getByLabel('Phone number 1').fill(verification.cellPhone);
      await dialog.getByLabel(/Requester’s name/).fill('Jane Roe');
      await dialog.getByLabel(/Requester’s e-mail address/).fill('jane@example.test');
      expect(await axeViolations(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'File request' }).click();
      await expect(dialog).toBeHidden();

      // Its page: open, due in 30 days (GDPR), matching the number's verification.
      await expect(page.getByRole('heading', { name: 'Erasure request of Jane Roe' })).toBeVisible();
      await expect(page.getByText('Open', { exact: true })).toBeVisible();
      await expect(page.getByText(/30 days from its receipt on .* under the GDPR/)).toBeVisible();
      const matches = page.getByRole('region', { name: 'What it matches' });
      await expect(matches.getByText('Verifications').locator('xpath=following-sibling::dd')).toHaveText('1');
      await expectNoSidewaysScroll(page);
      expect(await axeViolations(page)).toEqual([]);

      await page.getByRole('button', { name: 'Carry out' }).click();
      const confirm = page.getByRole('dialog', { name: 'Carry out the erasure request?' });
      await expect(confirm.getByText('This cannot be undone.')).toBeVisible();
      expect(await axeViolations(page)).toEqual([]);
      await confirm.getByRole('button', { name: 'Erase' }).click();
      await expect(confirm).toBeHidden();

      // The job answers; the page follows it.
      const answer = page.getByRole('region', { name: 'Answer' });
      await expect(answer).toBeVisible({ timeout: 30_000 });
      await expect(page.getByText('Answered', { exact: true })).toBeVisible();
      await expect(
        answer.getByText('Verifications erased').locator('xpath=following-sibling::dd'),
      ).toHaveText('1');
      await expect(page.getByText(/Masked since it was answered/)).toBeVisible();
      await expectNoSidewaysScroll(page);
      expect(await axeViolations(page)).toEqual([]);

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download receipt' }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^privacy-request-dsr_[\w-]+-receipt\.json$/);
      const path = await download.path();
      const receipt = JSON.parse(await readFile(path, 'utf8')) as {
        type: string;
        law: string;
        answer: { erased: number; holds: unknown[] };
      };
      expect(receipt).toMatchObject({ type: 'erasure', law: 'gdpr', answer: { erased: 1, holds: [] } });

      // The list shows it answered.
      await page.getByRole('link', { name: 'Privacy requests', exact: true }).first().click();
      const list = page.getByRole(viewport.width < 768 ? 'list' : 'table', { name: 'Privacy requests' });
      await expect(list.getByRole('link', { name: 'Erasure request of Jane Roe' })).toBeVisible();
      await expect(list.getByText('Answered', { exact: true })).toBeVisible();
      await expectNoSidewaysScroll(page);
      expect(await axeViolations(page)).toEqual([]);
    });
  });
}

test('an access request’s bundle downloads; an erasure meeting a legal hold restricts the held number and names the hold', async ({
  page,
  user,
}) => {
  test.slow();
  await signUpVerified(page.request, user);
  const membership = await createCompany(page.request, `Privacy holds ${user.lastName}`);
  const account = membership.account.id;
  const form = await createLiveForm(page.request, { account, name: 'Quote request' });
  const [held, free] = await createVerifications(page.request, {
    account,
    specs: [{ publicId: form.publicId }, { publicId: form.publicId }],
  });
  if (!held || !free) throw new Error('no verifications made');
  const csrf = ((await (await page.request.post('/api/auth/csrf')).json()) as { csrfToken: string })
    .csrfToken;
  const hold = await page.request.post(`/api/legal-holds?account=${account}`, {
    headers: { 'X-CSRFToken': csrf },
    data: { scope: 'identifier', phone: held.cellPhone, reason: 'Smith v. Acme, preserve all records' },
  });
  expect(hold.status(), await hold.text()).toBe(201);

  const file = async (type: 'Access' | 'Erasure', phones: string[]) => {
    await page.goto('/settings/privacy-requests');
    await page.getByRole('button', { name: 'File a request' }).click();
    const dialog = page.getByRole('dialog', { name: 'File a privacy request' });
    await dialog.getByRole('radio', { name: new RegExp(type) }).check();
    for (const [i, phone] of phones.entries()) {
      if (i > 0) await dialog.getByRole('button', { name: 'Add another number' }).click();
      await dialog.getByRole('textbox', { name: `Phone number ${i + 1}`, exact: true }).fill(phone);
    }
    await dialog.getByLabel(/Requester’s name/).fill('Jane Roe');
    await dialog.getByRole('button', { name: 'File request' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('heading', { name: `${type} request of Jane Roe` })).toBeVisible();
  };
  const carryOut = async (confirmLabel: string) => {
    await page.getByRole('button', { name: 'Carry out' }).click();
    await page.getByRole('dialog').getByRole('button', { name: confirmLabel }).click();
    await expect(page.getByRole('region', { name: 'Answer' })).toBeVisible({ timeout: 30_000 });
  };

  // Access: the bundle, a ZIP.
  await file('Access', [held.cellPhone]);
  await carryOut('Prepare the bundle');
  const [bundle] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download bundle' }).click(),
  ]);
  expect(bundle.suggestedFilename()).toMatch(/^privacy-request-dsr_[\w-]+\.zip$/);
  const zip = await readFile(await bundle.path());
  expect(zip.subarray(0, 2).toString('latin1')).toBe('PK');

  // Erasure of both numbers: the held one is restricted instead, and the answer says why.
  await file('Erasure', [held.cellPhone, free.cellPhone]);
  await carryOut('Erase');
  const answer = page.getByRole('region', { name: 'Answer' });
  await expect(answer.getByText('Verifications erased').locator('xpath=following-sibling::dd')).toHaveText(
    '1',
  );
  await expect(
    answer.getByText('Restricted under a legal hold').locator('xpath=following-sibling::dd'),
  ).toHaveText('1');
  await expect(answer.getByText(/Smith v\. Acme, preserve all records/).first()).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
});
