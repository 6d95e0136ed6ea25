import { randomBytes, randomInt } from 'node:crypto';
import { createCompany, createLiveForm, expect, signUpVerified, test } from './fixtures.ts';
import { expectNoSidewaysScroll } from './layout';

/**
 * Issue #18 items 5-6: an undeliverable number, seen from both sides. An owner adds a test number that simulates
 * "Unreachable (30003)"; a consumer on a phone-width page of a Spanish form asks for a code to it and reads why it did
 * not arrive, in Spanish; the member finds the send in Activity log → Attempts, filtered to Undelivered, with the
 * reason in words.
 */
test('an unreachable number: the consumer is told in Spanish, the member sees the reason in the attempts', async ({
  page,
  browser,
  user,
}) => {
  await signUpVerified(page.request, user);
  const { account } = await createCompany(page.request, `Attempts ${user.lastName}`);
  const form = await createLiveForm(page.request, {
    account: account.id,
    name: 'Alta de clientes',
    language: 'es',
  });

  // A fictional line (555-01xx), fresh in this new account.
  const line = `01${String(randomInt(100)).padStart(2, '0')}`;
  await page.goto('/settings/company-info');
  const add = page.getByRole('form', { name: 'Add a test number' });
  await add.getByRole('textbox', { name: 'Phone number' }).fill(`(415) 555-${line}`);
  await add.getByRole('textbox', { name: 'Code' }).fill('246810');
  await add.getByRole('combobox', { name: 'Simulated delivery' }).click();
  await page.getByRole('option', { name: 'Unreachable (30003)' }).click();
  await add.getByRole('button', { name: 'Add test number' }).click();
  await expect(page.getByText('Test number added')).toBeVisible();

  const [a, b] = randomBytes(2);
  const consumer = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    extraHTTPHeaders: { 'X-Forwarded-For': `203.0.${a}.${b}` },
  });
  const phone = await consumer.newPage();
  await phone.goto(form.publicUrl);
  await expect(phone.locator('html')).toHaveAttribute('lang', 'es');
  await phone.getByLabel('Número de celular').fill(`(415) 555-${line}`);
  await phone.getByRole('button', { name: 'Enviar código' }).click();
  // The page asks the server what became of the message while the consumer waits.
  await expect(phone.getByText(/No pudimos comunicarnos con su teléfono/)).toBeVisible({ timeout: 20_000 });
  await expectNoSidewaysScroll(phone);
  await consumer.close();

  // The member: Activity log (test data: the number is a test number, issue #33) → Attempts, Delivery status =
  // Undelivered.
  await page.goto('/activity-log/?mode=test');
  await page
    .getByRole('navigation', { name: 'Activity log views' })
    .getByRole('link', { name: 'Attempts' })
    .click();
  await expect(page).toHaveURL(/\/activity-log\/attempts\?mode=test$/);
  await expect(page.getByRole('link', { name: 'Attempts' })).toHaveAttribute('aria-current', 'page');
  const filters = page.getByRole('search', { name: 'Filter codes sent' });
  await filters.getByRole('combobox', { name: 'Delivery status' }).click();
  await page.getByRole('option', { name: 'Undelivered' }).click();
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(/deliveryStatus=/);

  const table = page.getByRole('table', { name: 'Codes sent' });
  const row = table.getByRole('row').filter({ hasText: `+1 (415) 555-${line}` });
  await expect(row).toHaveCount(1);
  await expect(row.getByText('Undelivered')).toBeVisible();
  await expect(row.getByText(/^Unreachable/)).toBeVisible();
  await expect(row.getByText('Alta de clientes')).toBeVisible();
  await expect(row.getByRole('cell', { name: 'SMS' })).toBeVisible();

  // At phone width the same row is a card, with nothing to scroll sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  const card = page
    .getByRole('list', { name: 'Codes sent' })
    .getByRole('listitem')
    .filter({ hasText: `+1 (415) 555-${line}` });
  await expect(card.getByText(/^Unreachable/)).toBeVisible();
  await expect(card.getByText('Undelivered')).toBeVisible();
  await expectNoSidewaysScroll(page);
});
