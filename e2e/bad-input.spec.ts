import { expect, newUser, test } from './fixtures.ts';

async function fillSignup(
  page: import('@playwright/test').Page,
  user: { firstName: string; lastName: string; email: string },
  password: string,
  confirm: string,
) {
  await page.goto('/auth/signup/');
  await page.getByLabel('First name').fill(user.firstName);
  await page.getByLabel('Last name').fill(user.lastName);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm password').fill(confirm);
  await page.getByRole('button', { name: 'Sign up' }).click();
}

test('a weak password is refused with the spec message beside the field', async ({ page, user }) => {
  await fillSignup(page, user, 'short1!', 'short1!');
  await expect(page.getByText('Passwords must be at least 9 characters long.')).toBeVisible();
  await fillSignup(page, user, 'longenoughbutplain', 'longenoughbutplain');
  await expect(page.getByText('Password does not meet requirements')).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/signup\/?$/);
});

test('a mismatched confirmation is refused beside the confirmation field', async ({ page, user }) => {
  await fillSignup(page, user, user.password, `${user.password}x`);
  await expect(page.getByText('The two passwords do not match.')).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/signup\/?$/);
});

test('an e-mail address that already has an account is refused', async ({ page, browser, user }) => {
  await fillSignup(page, user, user.password, user.password);
  await expect(page).toHaveURL(/\/auth\/signup\/verify-email\/?$/);

  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  const again = { ...newUser(), email: user.email.toUpperCase() };
  await fillSignup(other, again, again.password, again.password);
  await expect(other.getByText('A user with that e-mail address already exists.')).toBeVisible();
  await expect(other).toHaveURL(/\/auth\/signup\/?$/);
  await fresh.close();
});

test('a wrong password and an unknown e-mail get the same answer', async ({ page, user }) => {
  await fillSignup(page, user, user.password, user.password);
  await expect(page).toHaveURL(/\/auth\/signup\/verify-email\/?$/);
  await page.context().clearCookies();

  for (const [email, password] of [
    [user.email, 'wrong password 1!'],
    [`nobody-${user.email}`, 'wrong password 1!'],
  ] as const) {
    await page.goto('/auth/login/');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByText('Unable to log in with the provided e-mail and password.')).toBeVisible();
    await expect(page).toHaveURL(/\/auth\/login/);
  }
});

test('an unsafe call without the CSRF token is refused', async ({ page }) => {
  await page.goto('/auth/login/');
  const answer = await page.evaluate(async () => {
    const res = await fetch('/api/auth/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'someone@example.test', password: 'whatever 1!' }),
    });
    return { status: res.status, body: (await res.json()) as { detail?: string } };
  });
  expect(answer.status).toBe(403);
  expect(answer.body.detail).toContain('CSRF');
});

test('an unknown page shows the 404 screen with a way home', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
  await expect(
    page.getByText('Looks like this page was moved, deleted, or maybe... never even existed.'),
  ).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/dashboard');
});
