import { axeViolations } from './axe.ts';
import { createCompany, expect, signUpVerified, test } from './fixtures.ts';
import { expectNoSidewaysScroll } from './layout';

/**
 * Issue #35: "may I contact this number now?" in the app. An owner checks a number the account never verified in
 * Activity Log › Contactability: the verdict says Not now, with no consent on record, and it is kept in the list below
 * with who asked; Details shows it again. At desktop and phone width, axe clean (WCAG 2.1 AA) with the verdict shown
 * and with its dialog open, and nothing wider than the screen.
 */
for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('an owner checks a number never verified: Not now, no consent; the verdict is kept in the list', async ({
      page,
      user,
    }) => {
      await signUpVerified(page.request, user);
      await createCompany(page.request, `Contactability ${user.lastName}`);

      await page.goto('/activity-log/contactability');
      const tabs = page.getByRole('navigation', { name: 'Activity log views' });
      await expect(tabs.getByRole('link', { name: 'Contactability' })).toHaveAttribute(
        'aria-current',
        'page',
      );
      await expect(page.getByText('No numbers checked yet')).toBeVisible();
      expect(await axeViolations(page)).toEqual([]);

      const form = page.getByRole('form', { name: 'Check a number' });
      await form.getByLabel('Phone number').fill('(201) 555-0199');
      await form.getByLabel('Purpose').selectOption('informational');
      await form.getByRole('button', { name: 'Check' }).click();

      const verdict = page.getByRole('region', { name: 'Verdict for +1 (201) 555-0199' });
      await expect(verdict.getByRole('heading', { name: 'Not now' })).toBeVisible();
      await expect(
        verdict.getByText('No verification of this number in this account before that time.'),
      ).toBeVisible();
      await expect(verdict.getByText('None on record')).toBeVisible();
      await expect(verdict.getByText(/America\/New_York, NJ/)).toBeVisible();
      await expect(verdict.getByText(`by ${user.email}`)).toBeVisible();

      const list = page.getByRole(viewport.width < 768 ? 'list' : 'table', { name: 'Verdicts' });
      await expect(list.getByText('+1 (201) 555-0199')).toBeVisible();
      await expect(list.getByText('Not now', { exact: true })).toBeVisible();
      await expect(list.getByText('No consent', { exact: true })).toBeVisible();
      await expect(list.getByText(user.email)).toBeVisible();
      await expectNoSidewaysScroll(page);
      expect(await axeViolations(page)).toEqual([]);

      // The kept verdict in full, again.
      await list.getByRole('button', { name: /^Details of the check of \+1 \(201\) 555-0199/ }).click();
      const dialog = page.getByRole('dialog', { name: 'Verdict' });
      await expect(dialog.getByRole('heading', { name: 'Not now' })).toBeVisible();
      expect(await axeViolations(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'Close' }).click();
      await expect(dialog).toBeHidden();

      // The filters: the number by its digits, then the verdict.
      await page.getByRole('searchbox', { name: 'Number' }).fill('555-0199');
      await expect(page).toHaveURL(/phone=555-0199/);
      await expect(list.getByText('+1 (201) 555-0199')).toBeVisible();
      await page.getByLabel('Verdict', { exact: true }).selectOption('true');
      await expect(page.getByText('No matching verdicts')).toBeVisible();
    });
  });
}
