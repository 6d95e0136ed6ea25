import { randomBytes, randomInt } from 'node:crypto';
import { publicRevokeTexts } from '@veriform/contracts/public-revoke-texts';
import { publicVerifyTexts } from '@veriform/contracts/public-verify-texts';
import { revokeLinkTexts } from '@veriform/contracts/revoke-link';
import { axeViolations } from './axe.ts';
import { createCompany, createLiveForm, expect, latestEmailTo, signUpVerified, test } from './fixtures.ts';
import { expectNoSidewaysScroll } from './layout';
import { baseURL } from './ports.ts';

/**
 * Issue #35: a consumer revokes consent on the form's revocation page, reached from the hosted page's link, by phone
 * number with the one confirmation text asked for — at phone and desktop width, in English and in Spanish, with the
 * refusal of an empty field, the confirmation with the day it was received, axe clean (WCAG 2.1 AA) at every step and
 * nothing wider than the screen. The owner then finds it in Activity Log › Revocations.
 */

const viewports = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
] as const;

function clientAddress(): string {
  const [a, b] = randomBytes(2);
  return `203.0.${a}.${b}`;
}

/** A fresh US number (every exchange 200–899 of area code 415 is a valid mobile-or-fixed line). */
function newCellPhone(): { typed: string; e164: string } {
  const exchange = 200 + randomInt(700);
  const line = String(randomInt(10_000)).padStart(4, '0');
  return { typed: `(415) ${exchange}-${line}`, e164: `+1415${exchange}${line}` };
}

for (const viewport of viewports) {
  for (const language of ['en', 'es'] as const) {
    test(`a consumer revokes consent on the revocation page at ${viewport.width} px, in ${language}`, async ({
      browser,
      page,
      user,
    }) => {
      const t = publicRevokeTexts[language];
      await signUpVerified(page.request, user);
      const company = `Revoke ${user.lastName}`;
      const membership = await createCompany(page.request, company);
      const form = await createLiveForm(page.request, {
        account: membership.account.id,
        name: 'Loan application',
        language,
      });

      const consumer = await browser.newContext({
        viewport,
        ...(viewport.width < 768 ? { isMobile: true, hasTouch: true } : {}),
        extraHTTPHeaders: { 'X-Forwarded-For': clientAddress() },
      });
      try {
        const phonePage = await consumer.newPage();
        await phonePage.goto(`${baseURL}/f/${form.publicId}`);
        await phonePage.getByRole('link', { name: revokeLinkTexts[language] }).click();
        await expect(phonePage).toHaveURL(`${baseURL}/f/${form.publicId}/revoke`);
        await expect(phonePage.getByRole('heading', { level: 1, name: t.title })).toBeVisible();
        await expect(phonePage.locator('html')).toHaveAttribute('lang', language);
        await expect(phonePage).toHaveTitle(t.pageTitle(company));
        expect(await axeViolations(phonePage)).toEqual([]);

        // Nothing typed: the field says so, and the focus is on it.
        await phonePage.getByRole('button', { name: t.submit }).click();
        const phone = phonePage.getByRole('textbox', { name: t.phoneLabel });
        await expect(phonePage.getByText(t.phoneRequired)).toBeVisible();
        await expect(phone).toBeFocused();
        expect(await axeViolations(phonePage)).toEqual([]);

        const number = newCellPhone();
        await phone.fill(number.typed);
        await phonePage.getByRole('checkbox', { name: t.confirmLabel }).check();
        await phonePage.getByRole('button', { name: t.submit }).click();

        const done = phonePage.getByRole('heading', { level: 2, name: t.doneTitle });
        await expect(done).toBeVisible();
        await expect(done).toBeFocused();
        // When it was received: the date, in the form's language (a year in it whatever the format).
        await expect(phonePage.getByText(new RegExp(`${company}.+10`))).toContainText(
          String(new Date().getFullYear()),
        );
        await expect(phonePage.getByText(t.doneConfirm)).toBeVisible();
        await expect(phonePage.getByText(/^(Reference|Referencia): /)).toBeVisible();
        expect(await axeViolations(phonePage)).toEqual([]);
        await expectNoSidewaysScroll(phonePage);

        // The one confirmation text (the development outbox stands for the phone), in the form's language.
        const text = await latestEmailTo(page.request, number.e164);
        expect(text.text).toBe(t.confirmationSms(company));

        // The owner sees it in Activity Log › Revocations, from the revocation page, open.
        await page.setViewportSize(viewport);
        await page.goto('/activity-log/revocations');
        const list = page.getByRole(viewport.width < 768 ? 'list' : 'table', { name: 'Revocations' });
        await expect(list.getByText(number.e164)).toBeVisible();
        await expect(list.getByText('Revocation page')).toBeVisible();
        await expect(list.getByText('Open', { exact: true })).toBeVisible();
      } finally {
        await consumer.close();
      }
    });
  }
}

test('an unknown link: the not-available page, axe clean', async ({ page }) => {
  const response = await page.goto('/f/AAAAAAAAAAAAAAAA/revoke');
  expect(response?.status()).toBe(404);
  await expect(
    page.getByRole('heading', { level: 1, name: publicVerifyTexts.en.notAvailableTitle }),
  ).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
});
