import { createCompany, expect, signUpVerified, test } from './fixtures.ts';
import { expectNoSidewaysScroll } from './layout';

/**
 * Issue #35: a revocation of consent received elsewhere (a call to the help desk) is recorded by the owner in the
 * Activity Log's Revocations view, shown with the day it must be honoured by, and acknowledged once honoured. At
 * desktop and phone width, nothing wider than the screen.
 */
for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('an owner records a revocation, sees its deadline, and acknowledges it', async ({ page, user }) => {
      await signUpVerified(page.request, user);
      await createCompany(page.request, `Revocations ${user.lastName}`);

      await page.goto('/activity-log/revocations');
      const tabs = page.getByRole('navigation', { name: 'Activity log views' });
      await expect(tabs.getByRole('link', { name: 'Revocations' })).toHaveAttribute('aria-current', 'page');
      await expect(page.getByText('No revocations yet')).toBeVisible();

      await page.getByRole('button', { name: 'Record revocation' }).click();
      const dialog = page.getByRole('dialog', { name: 'Record a revocation' });
      await dialog.getByLabel('Phone number').fill('(201) 555-0199');
      await dialog.getByLabel('How it reached you').selectOption('phone_call');
      await dialog.getByLabel('Note').fill('Asked the help desk to stop the texts');
      await dialog.getByRole('button', { name: 'Record revocation' }).click();
      await expect(dialog).toBeHidden();

      const list = page.getByRole(viewport.width < 768 ? 'list' : 'table', { name: 'Revocations' });
      await expect(list.getByText('+12015550199')).toBeVisible();
      await expect(list.getByText('Asked the help desk to stop the texts')).toBeVisible();
      await expect(list.getByText('Open', { exact: true })).toBeVisible();
      await expect(list.getByText(/^\d{4}-\d{2}-\d{2}$/)).toBeVisible();
      await expectNoSidewaysScroll(page);

      await list.getByRole('button', { name: 'Acknowledge the revocation of +12015550199' }).click();
      await expect(list.getByText('Acknowledged', { exact: true })).toBeVisible();
      await expect(list.getByRole('button', { name: /^Acknowledge/ })).toHaveCount(0);

      // The status filter: acknowledged ones only, then open ones (none left).
      await page.getByLabel('Status').selectOption('open');
      await expect(page.getByText('No revocations with this status')).toBeVisible();
      await page.getByLabel('Status').selectOption('acknowledged');
      await expect(list.getByText('+12015550199')).toBeVisible();
    });
  });
}
