import { randomBytes, randomInt } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { createCompany, createLiveForm, expect, latestEmailTo, signUpVerified, test } from './fixtures.ts';
import { expectNoSidewaysScroll } from './layout';

/**
 * Issue #18: a customer publishes consent v1, a consumer on a phone-width page reads it, ticks "I agree" and
 * verifies; v2 is published; the first verification still shows v1.
 */

async function codeSentTo(request: APIRequestContext, to: string): Promise<string> {
  const message = await latestEmailTo(request, to);
  const code = message.text.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`no code in: ${message.text}`);
  return code;
}

test('consent v1 is shown, ticked and kept by the verification after v2 is published', async ({
  page,
  browser,
  user,
}) => {
  await signUpVerified(page.request, user);
  const { account } = await createCompany(page.request, `Consent ${user.lastName}`);
  const form = await createLiveForm(page.request, { account: account.id, name: 'Solar quote' });

  await page.goto(`/forms/${form.id}`);
  const card = page.getByRole('region', { name: 'Consent text' });
  await expect(card.getByText(/No consent text in English yet/)).toBeVisible();
  const first = card.getByRole('textbox', { name: /First version/ });
  await expect(first).toHaveValue(/By entering your number you agree that Consent/);
  await first.fill('You agree that Solar Co may text you about your quote. Terms: https://example.com/terms');
  await expect(card.getByRole('switch', { name: /Require an “I agree” checkbox/ })).toBeChecked();
  await card.getByRole('button', { name: 'Publish version 1' }).click();
  await expect(page.getByText('Consent version 1 published')).toBeVisible();
  await expect(card.getByText('Current: version 1')).toBeVisible();

  const [a, b] = randomBytes(2);
  const consumer = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    extraHTTPHeaders: { 'X-Forwarded-For': `203.0.${a}.${b}` },
  });
  const phone = await consumer.newPage();
  await phone.goto(form.publicUrl);
  await expect(phone.getByText(/You agree that Solar Co may text you/)).toBeVisible();
  await expect(phone.getByRole('link', { name: 'https://example.com/terms' })).toBeVisible();
  const exchange = 200 + randomInt(700);
  const line = String(randomInt(10_000)).padStart(4, '0');
  await phone.getByLabel('Cell phone number').fill(`(415) ${exchange}-${line}`);
  await phone.getByRole('button', { name: 'Send code' }).click();
  const agree = phone.getByRole('checkbox', { name: 'I agree' });
  await expect(phone.getByText(/Tick “I agree”/)).toBeVisible();
  await expect(agree).toBeFocused();
  await agree.check();
  await phone.getByRole('button', { name: 'Send code' }).click();
  const codeInput = phone.getByLabel('Verification code');
  await expect(codeInput).toBeFocused();
  await codeInput.fill(await codeSentTo(page.request, `+1415${exchange}${line}`));
  await phone.getByRole('button', { name: 'Verify' }).click();
  await expect(phone.getByRole('heading', { name: 'Your number is verified' })).toBeVisible();
  // Nothing on the page is wider than the phone.
  await expectNoSidewaysScroll(phone);
  await consumer.close();

  const next = card.getByRole('textbox', { name: /New version/ });
  await next.fill('Version two: Solar Co may call or text you.');
  await card.getByRole('button', { name: 'Publish version 2' }).click();
  await expect(page.getByText('Consent version 2 published')).toBeVisible();
  await expect(card.getByRole('region', { name: 'Changes from version 1 to version 2' })).toBeVisible();

  const list = await page.request.get(`/api/verifications?account=${account.id}`);
  const [verification] = ((await list.json()) as { results: { id: number }[] }).results;
  await page.goto(`/activity-log/${verification?.id}`);
  const field = (label: string) =>
    page.getByText(label, { exact: true }).locator('xpath=following-sibling::*[1]');
  await expect(field('Consent version')).toHaveText('Version 1 (English)');
  await expect(field('Consent hash')).toHaveText(/^[0-9a-f]{64}$/);
});
