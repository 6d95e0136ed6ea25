import type { Page } from '@playwright/test';
import { axeViolations } from './axe.ts';
import { expect, signUpOwner, test } from './fixtures.ts';
import { expectNoSidewaysScroll } from './layout';

/**
 * Issue #37 item 1: an owner sets how long the company's evidence is kept, in Company Info. Four years is saved at
 * once; three asks first, in a dialog that names the TCPA's four-year limitation period: cancelled, nothing changes;
 * confirmed, the policy is three years and the card says it was confirmed. axe finds nothing with the dialog open, at
 * desktop and phone width, and nothing is wider than the screen. (The public page of a purged certificate needs
 * evidence past the policy, which the running app cannot age: the server's retention tests purge at a controlled clock
 * and the certificate page's component test shows the purged answer.)
 */

async function choose(page: Page, years: string) {
  await page.getByRole('combobox', { name: 'Keep evidence for' }).click();
  await page.getByRole('option', { name: years, exact: true }).click();
}

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('an owner keeps evidence 4 years, then 3 after confirming the TCPA warning', async ({
      page,
      user,
    }) => {
      await signUpOwner(page.request, user);
      await page.goto('/settings/company-info');
      const card = page.getByRole('region', { name: 'Evidence retention' });
      const select = card.getByRole('combobox', { name: 'Keep evidence for' });
      await expect(select).toHaveValue('5 years (default)');
      await expect(card.getByText('Nothing has been purged yet.')).toBeVisible();
      await expect(card.getByText(/The next purge, .+, removes evidence created before/)).toBeVisible();

      await choose(page, '4 years');
      await expect(page.getByText('Evidence is kept for 4 years.')).toBeVisible();
      await expect(page.getByRole('dialog')).toHaveCount(0);
      await expect(select).toHaveValue('4 years');

      await choose(page, '3 years');
      const dialog = page.getByRole('dialog', { name: 'Keep evidence for less than four years?' });
      await expect(dialog).toContainText("TCPA's four-year limitation period");
      await expect(dialog).toContainText('28 U.S.C. §1658(a)');
      expect(await axeViolations(page)).toEqual([]);
      await expectNoSidewaysScroll(page);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect(dialog).toBeHidden();
      await expect(select).toHaveValue('4 years');

      await choose(page, '3 years');
      await dialog.getByRole('button', { name: 'Keep 3 years' }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByText('Evidence is kept for 3 years.')).toBeVisible();
      await expect(card.getByText(/Below the TCPA’s four-year limitation period: confirmed/)).toBeVisible();
      await expect(select).toHaveValue('3 years');

      // As saved: a reload reads it back.
      await page.reload();
      await expect(
        page.getByRole('region', { name: 'Evidence retention' }).getByRole('combobox'),
      ).toHaveValue('3 years');
      expect(await axeViolations(page)).toEqual([]);
      await expectNoSidewaysScroll(page);
    });
  });
}
