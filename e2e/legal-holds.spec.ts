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
 * Issue #37 item 2: a dispute needs one consumer's evidence kept. The owner places a legal hold on their number in
 * Settings › Legal holds, sees it listed with what it reaches, finds the verification's detail saying it is under
 * hold, tries to redact it and is refused with the hold's id and reason, then releases the hold with a reason. At
 * desktop and phone width, axe clean (WCAG 2.1 AA) on each screen and with its dialogs open, and nothing wider than
 * the screen.
 */
for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('an owner places a hold on a number, is refused its redaction, and releases the hold', async ({
      page,
      user,
    }) => {
      test.slow();
      await signUpVerified(page.request, user);
      const membership = await createCompany(page.request, `Holds ${user.lastName}`);
      const form = await createLiveForm(page.request, { account: membership.account.id, name: 'Loans' });
      const [verification] = await createVerifications(page.request, {
        account: membership.account.id,
        specs: [{ publicId: form.publicId }],
      });
      if (!verification) throw new Error('no verification made');

      await page.goto('/settings/legal-holds');
      await expect(page.getByRole('tab', { name: 'Legal holds' })).toHaveAttribute('aria-selected', 'true');
      // The settings tabs, one more, still all in sight (they wrap on a phone).
      await expect(page.getByRole('tab', { name: 'Legal holds' })).toBeInViewport({ ratio: 1 });
      await expect(page.getByRole('tab', { name: 'My Account' })).toBeInViewport({ ratio: 1 });
      await page.screenshot({ path: test.info().outputPath(`settings-tabs-${viewport.width}.png`) });
      await expect(page.getByText('No legal holds')).toBeVisible();
      await expectNoSidewaysScroll(page);
      expect(await axeViolations(page)).toEqual([]);

      // On the number, with the case it is kept for.
      await page.getByRole('button', { name: 'Place a hold' }).click();
      const dialog = page.getByRole('dialog', { name: 'Place a legal hold' });
      await expect(dialog.getByRole('radio', { name: /A number or address/ })).toBeChecked();
      expect(await axeViolations(page)).toEqual([]);
      await dialog.getByRole('textbox', { name: /^Phone number/ }).fill(verification.cellPhone);
      await dialog.getByRole('textbox', { name: /^Reason/ }).fill('Smith v. Acme, case 26-1234');
      await dialog.getByRole('button', { name: 'Place hold' }).click();
      await expect(dialog).toBeHidden();

      const list = page.getByRole(viewport.width < 768 ? 'list' : 'table', { name: 'Legal holds' });
      await expect(list.getByText(verification.cellPhone)).toBeVisible();
      await expect(list.getByText('Smith v. Acme, case 26-1234')).toBeVisible();
      await expect(list.getByText('1 verification', { exact: true })).toBeVisible();
      await expect(list.getByText('Active', { exact: true })).toBeVisible();
      await expectNoSidewaysScroll(page);
      expect(await axeViolations(page)).toEqual([]);

      // The verification says so, and its redaction is refused, naming the hold and its reason.
      await page.goto(`/activity-log/${verification.verificationId}`);
      await expect(page.getByText('Under legal hold: Smith v. Acme, case 26-1234')).toBeVisible();
      await expectNoSidewaysScroll(page);
      expect(await axeViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Certificate' }).click();
      await page.getByRole('menuitem', { name: 'Redact personal data…' }).click();
      const confirm = page.getByRole('dialog', { name: 'Redact personal data' });
      await confirm.getByRole('button', { name: 'Redact personal data' }).click();
      await expect(
        page.getByText(/under legal hold lh_[\w-]+ \(“Smith v\. Acme, case 26-1234”\)/).first(),
      ).toBeVisible();

      // Released with a reason: listed as released, no longer offered for release.
      await page.goto('/settings/legal-holds');
      await list.getByRole('button', { name: `Release the hold on ${verification.cellPhone}` }).click();
      const release = page.getByRole('dialog', { name: 'Release the legal hold' });
      await expect(release.getByText(/Smith v\. Acme, case 26-1234/)).toBeVisible();
      expect(await axeViolations(page)).toEqual([]);
      await release.getByRole('textbox', { name: /^Reason/ }).fill('Case settled');
      await release.getByRole('button', { name: 'Release hold' }).click();
      await expect(release).toBeHidden();
      await expect(list.getByText('Released: Case settled')).toBeVisible();
      await expect(list.getByText('Released', { exact: true })).toBeVisible();
      await expect(list.getByRole('button', { name: /^Release/ })).toHaveCount(0);
      await expectNoSidewaysScroll(page);
      expect(await axeViolations(page)).toEqual([]);
    });
  });
}
