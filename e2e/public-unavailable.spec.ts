import { createCompany, expect, signUpVerified, test } from './fixtures.ts';

/**
 * Issue 13 item 13: a consumer who opens the link of an inactive form reads "not available" in the form's language,
 * with the page's language set to match; an unknown link has no language, so it stays English.
 */

test('an inactive Spanish form answers in Spanish; an unknown link in English (phone width)', async ({
  page,
  browser,
  user,
}) => {
  await signUpVerified(page.request, user);
  const { account } = await createCompany(page.request, `Paused ${user.lastName}`);
  const csrf = ((await (await page.request.post('/api/auth/csrf')).json()) as { csrfToken: string })
    .csrfToken;
  const created = await page.request.post('/api/verify-forms', {
    headers: { 'X-CSRFToken': csrf },
    data: { account: account.id, name: 'Solicitud de préstamo', language: 'es' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { publicId } = (await created.json()) as { publicId: string };

  // A consumer: nobody logged in (a member would get the preview), on a phone.
  const consumer = await browser.newContext({ viewport: { width: 375, height: 800 }, isMobile: true });
  try {
    const phone = await consumer.newPage();
    const answer = await phone.goto(`/f/${publicId}`);
    expect(answer?.status()).toBe(404);
    expect(answer?.headers()['content-language']).toBe('es');
    await expect(phone.getByRole('heading', { name: 'Este formulario no está disponible' })).toBeVisible();
    await expect(phone.locator('html')).toHaveAttribute('lang', 'es');
    await expect(phone).toHaveTitle('Este formulario no está disponible');

    const unknown = await phone.goto('/f/AAAAAAAAAAAAAAAA');
    expect(unknown?.status()).toBe(404);
    await expect(phone.getByRole('heading', { name: 'This form is not available' })).toBeVisible();
    await expect(phone.locator('html')).toHaveAttribute('lang', 'en');
  } finally {
    await consumer.close();
  }
});
