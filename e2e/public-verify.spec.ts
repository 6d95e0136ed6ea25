import { randomBytes, randomInt } from 'node:crypto';
import type { APIRequestContext, Browser, BrowserContext } from '@playwright/test';
import sharp from 'sharp';
import {
  createCompany,
  createLiveForm,
  expect,
  latestEmailTo,
  signUpOwner,
  signUpVerified,
  test,
} from './fixtures.ts';

/**
 * The heart of the product: an owner publishes a form, a consumer on a phone proves a number with a code read from
 * the development outbox, and the owner sees the verification on the form page.
 */

/** A fresh US number per test (every exchange 200–899 of area code 415 parses as a valid mobile-or-fixed line). */
function newCellPhone(): { typed: string; e164: string } {
  const exchange = 200 + randomInt(700);
  const line = String(randomInt(10_000)).padStart(4, '0');
  return { typed: `(415) ${exchange}-${line}`, e164: `+1415${exchange}${line}` };
}

function clientAddress(): string {
  const [a, b] = randomBytes(2);
  return `203.0.${a}.${b}`;
}

/** A consumer: a phone-sized browser with nobody logged in, browsing from its own address. */
async function consumerContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    extraHTTPHeaders: { 'X-Forwarded-For': clientAddress() },
  });
}

async function codeSentTo(request: APIRequestContext, to: string): Promise<string> {
  const message = await latestEmailTo(request, to);
  const code = message.text.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`no code in: ${message.text}`);
  return code;
}

async function csrf(request: APIRequestContext): Promise<string> {
  return ((await (await request.post('/api/auth/csrf')).json()) as { csrfToken: string }).csrfToken;
}

test('an owner publishes a form and a consumer verifies a cell phone by text message, in English', async ({
  page,
  browser,
  user,
}) => {
  const owner = await signUpOwner(page.request, user);
  await page.goto('/forms/');
  await page.getByRole('button', { name: 'New form' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'New form' });
  await dialog.getByLabel('Name').fill('Loan application');
  await dialog.getByRole('button', { name: 'Create form' }).click();
  await expect(page.getByRole('heading', { name: 'Loan application' })).toBeVisible();

  const banner = await sharp({ create: { width: 1200, height: 300, channels: 3, background: '#2255aa' } })
    .png()
    .toBuffer();
  await page.getByRole('button', { name: 'Upload banner' }).click();
  const upload = page.getByRole('dialog', { name: 'Upload image' });
  await upload
    .getByLabel('Image file')
    .setInputFiles({ name: 'banner.png', mimeType: 'image/png', buffer: banner });
  await upload.getByRole('button', { name: 'Save' }).click();
  await expect(upload).toBeHidden();

  const live = page.getByRole('switch', { name: 'Active' });
  await live.click();
  await expect(live).toBeChecked();
  const publicUrl = await page.getByRole('textbox', { name: 'Public link' }).inputValue();
  await expect(page.getByRole('img', { name: /QR code/ })).toBeVisible();
  // Copy link puts exactly that address on the clipboard.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByRole('button', { name: 'Copy link' }).click();
  await expect(page.getByRole('tooltip', { name: 'Copied' })).toBeVisible();
  // Screen readers hear it too (a polite status message).
  await expect(page.getByRole('status').filter({ hasText: 'Public link copied' })).toBeAttached();
  expect(await page.evaluate('navigator.clipboard.readText()')).toBe(publicUrl);

  const consumer = await consumerContext(browser);
  const phone = await consumer.newPage();
  await phone.goto(`${publicUrl}?ref=CRM-4411`);
  await expect(phone.getByRole('heading', { name: 'Loan application' })).toBeVisible();
  await expect(phone.getByText(owner.company, { exact: false }).first()).toBeVisible();
  await expect(phone.locator('img[src^="/media/"]')).toBeVisible();

  const number = newCellPhone();
  await phone.getByLabel('Cell phone number').fill(number.typed);
  await expect(phone.getByRole('radio', { name: 'Text message (SMS)' })).toBeChecked();
  await phone.getByRole('button', { name: 'Send code' }).click();
  await expect(phone.getByText(/We sent a 6-digit code to/)).toBeVisible();
  const codeInput = phone.getByLabel('Verification code');
  await expect(codeInput).toHaveAttribute('autocomplete', 'one-time-code');
  await expect(codeInput).toBeFocused();

  const code = await codeSentTo(page.request, number.e164);
  await codeInput.fill(code);
  await phone.getByRole('button', { name: 'Verify' }).click();
  await expect(phone.getByRole('heading', { name: 'Your number is verified' })).toBeVisible();
  await consumer.close();

  // The owner sees it on the form page: the number, the reference from the link, the method.
  await page.reload();
  const recent = page.getByRole('table', { name: 'Recent verifications' });
  await expect(recent.getByText('CRM-4411')).toBeVisible();
  await expect(recent.getByText('SMS')).toBeVisible();
});

test('a consumer verifies by e-mail on a Spanish form, with the keyboard, after a wrong code', async ({
  page,
  browser,
  user,
}) => {
  await signUpVerified(page.request, user);
  const { account } = await createCompany(page.request, `Clínica ${user.lastName}`);
  const form = await createLiveForm(page.request, {
    account: account.id,
    name: 'Alta de clientes',
    language: 'es',
  });

  const consumer = await consumerContext(browser);
  const phone = await consumer.newPage();
  await phone.goto(form.publicUrl);
  await expect(phone.locator('html')).toHaveAttribute('lang', 'es');
  await expect(phone.getByRole('heading', { name: 'Alta de clientes' })).toBeVisible();

  // Keyboard only: type the number, move to the method, choose e-mail with the arrow key, type the address, Enter.
  const number = newCellPhone();
  const email = `consumer-${randomBytes(4).toString('hex')}@example.test`;
  await phone.getByLabel('Número de celular').focus();
  await phone.keyboard.type(number.typed);
  await phone.keyboard.press('Tab');
  await expect(phone.getByRole('radio', { name: 'Mensaje de texto (SMS)' })).toBeFocused();
  await phone.keyboard.press('ArrowDown');
  await expect(phone.getByRole('radio', { name: 'Correo electrónico' })).toBeChecked();
  await phone.keyboard.press('Tab');
  await expect(phone.getByRole('textbox', { name: 'Correo electrónico' })).toBeFocused();
  await phone.keyboard.type(email);
  await phone.keyboard.press('Enter');
  await expect(phone.getByText(/Enviamos un código de 6 dígitos a/)).toBeVisible();

  const code = await codeSentTo(page.request, email);
  const wrong = code === '000000' ? '111111' : '000000';
  await phone.getByLabel('Código de verificación').fill(wrong);
  await phone.keyboard.press('Enter');
  await expect(phone.getByText('Ese código no es correcto. Le quedan 4 intentos.')).toBeVisible();
  await phone.getByLabel('Código de verificación').fill(code);
  await phone.keyboard.press('Enter');
  await expect(phone.getByRole('heading', { name: 'Su número está verificado' })).toBeVisible();
  await consumer.close();

  await page.goto(`/forms/${form.id}`);
  const recent = page.getByRole('table', { name: 'Recent verifications' });
  await expect(recent.getByText('E-mail')).toBeVisible();
});

/** The other two pairings of language and channel (English by e-mail, Spanish by text message), end to end. */
for (const pairing of [
  {
    language: 'en',
    method: 'email',
    texts: {
      phone: 'Cell phone number',
      email: 'E-mail address',
      send: 'Send code',
      code: 'Verification code',
      verify: 'Verify',
      done: 'Your number is verified',
      channel: 'E-mail',
    },
  },
  {
    language: 'es',
    method: 'sms',
    texts: {
      phone: 'Número de celular',
      email: 'Correo electrónico',
      send: 'Enviar código',
      code: 'Código de verificación',
      verify: 'Verificar',
      done: 'Su número está verificado',
      channel: 'Mensaje de texto (SMS)',
    },
  },
] as const) {
  test(`a consumer verifies by ${pairing.method} on a form in ${pairing.language}, and the owner sees it`, async ({
    page,
    browser,
    user,
  }) => {
    await signUpVerified(page.request, user);
    const { account } = await createCompany(page.request, `Pairing ${user.lastName}`);
    const form = await createLiveForm(page.request, {
      account: account.id,
      name: `Form ${pairing.language} ${pairing.method}`,
      language: pairing.language,
    });

    const consumer = await consumerContext(browser);
    const phone = await consumer.newPage();
    await phone.goto(`${form.publicUrl}?ref=REF-${pairing.language}`);
    await expect(phone.locator('html')).toHaveAttribute('lang', pairing.language);
    const number = newCellPhone();
    await phone.getByLabel(pairing.texts.phone).fill(number.typed);
    let to: string = number.e164;
    if (pairing.method === 'email') {
      to = `consumer-${randomBytes(4).toString('hex')}@example.test`;
      await phone.getByRole('radio', { name: pairing.texts.channel }).check();
      await phone.getByRole('textbox', { name: pairing.texts.email }).fill(to);
    } else {
      await expect(phone.getByRole('radio', { name: pairing.texts.channel })).toBeChecked();
    }
    await phone.getByRole('button', { name: pairing.texts.send }).click();

    const message = await latestEmailTo(page.request, to);
    const code = message.text.match(/\b(\d{6})\b/)?.[1] ?? 'no code';
    if (pairing.method === 'sms') {
      // Spanish text, and WebOTP's origin line last: `@host #code`.
      expect(message.text).toContain(`código de verificación de Pairing ${user.lastName} es ${code}`);
      expect(message.text.trim().split('\n').at(-1)).toMatch(new RegExp(`^@\\S+ #${code}$`));
    }
    await phone.getByLabel(pairing.texts.code).fill(code);
    await phone.getByRole('button', { name: pairing.texts.verify }).click();
    await expect(phone.getByRole('heading', { name: pairing.texts.done })).toBeVisible();
    await consumer.close();

    await page.goto(`/forms/${form.id}`);
    const recent = page.getByRole('table', { name: 'Recent verifications' });
    await expect(recent.getByText(`REF-${pairing.language}`)).toBeVisible();
    await expect(recent.getByText(pairing.method === 'sms' ? 'SMS' : 'E-mail')).toBeVisible();
  });
}

test('an unknown or inactive form shows a polite page instead of the form', async ({ browser }) => {
  const consumer = await consumerContext(browser);
  const phone = await consumer.newPage();
  const response = await phone.goto('/f/no-such-form');
  expect(response?.status()).toBe(404);
  await expect(phone.getByRole('heading', { name: 'This form is not available' })).toBeVisible();
  await expect(phone.getByLabel('Cell phone number')).toHaveCount(0);
  await consumer.close();
});

test('an owner previews an inactive form, adds a test number and verifies it with the fixed code, marked as a test', async ({
  page,
  browser,
  user,
}) => {
  await signUpVerified(page.request, user);
  const { account } = await createCompany(page.request, `Test Mode ${user.lastName}`);
  const headers = { 'X-CSRFToken': await csrf(page.request) };
  const created = await page.request.post('/api/verify-forms', {
    headers,
    data: { name: 'Dry run', account: account.id },
  });
  const form = (await created.json()) as { id: number; publicUrl: string };

  // Before going live, the form page previews the consumer's page, which says it is a preview.
  await page.goto(`/forms/${form.id}`);
  const preview = page.frameLocator('iframe[title="Preview of Dry run"]');
  await expect(preview.getByText('Preview: this form is inactive.', { exact: false })).toBeVisible();

  await page.goto('/settings/company-info');
  await page.getByRole('textbox', { name: 'Phone number' }).fill('(415) 555-0142');
  await page.getByRole('textbox', { name: 'Code' }).fill('424242');
  await page.getByRole('button', { name: 'Add test number' }).click();
  await expect(page.getByText('Test number added')).toBeVisible();
  await expect(page.getByRole('table', { name: 'Test numbers' }).getByText('424242')).toBeVisible();

  const patched = await page.request.patch(`/api/verify-forms/${form.id}`, {
    headers,
    data: { isLive: true },
  });
  expect(patched.status()).toBe(200);
  const consumer = await consumerContext(browser);
  const phone = await consumer.newPage();
  await phone.goto(form.publicUrl);
  await phone.getByLabel('Cell phone number').fill('415-555-0142');
  await phone.getByRole('button', { name: 'Send code' }).click();
  await phone.getByLabel('Verification code').fill('424242');
  await phone.getByRole('button', { name: 'Verify' }).click();
  await expect(phone.getByRole('heading', { name: 'Your number is verified' })).toBeVisible();
  await consumer.close();

  // Nothing was sent to a test number, and the verification is marked as a test.
  const outbox = await page.request.get(`/api/dev/outbox?to=${encodeURIComponent('+14155550142')}`);
  expect(((await outbox.json()) as { results: unknown[] }).results).toEqual([]);
  // A hosted-page code to a test number is test data (issue #33, ADR 29): the activity log shows it in its test view,
  // marked.
  await page.goto('/activity-log/?mode=test');
  await expect(page.getByRole('status').filter({ hasText: 'Viewing test data' })).toBeVisible();
  const rows = page.getByRole('table', { name: 'Verifications' }).getByRole('row');
  await expect(rows.nth(1).getByText('Test', { exact: true })).toBeVisible();
});
