import { tokenLinkPages } from '@veriform/contracts/page-paths';
import { expect, latestEmailTo, linkIn, signUpOwner, test } from './fixtures.ts';

const NEW_PASSWORD = 'brand new secret 7#';

test('a user who forgot the password resets it from the e-mailed link', async ({ page, browser, user }) => {
  await signUpOwner(page.request, user);
  // Another device where the user is logged in: the reset must end that session.
  const otherDevice = await browser.newContext({ storageState: await page.context().storageState() });
  const otherPage = await otherDevice.newPage();
  await otherPage.goto('/settings/my-account');
  await expect(otherPage.getByText(user.email).first()).toBeVisible();

  await page.context().clearCookies();
  await page.goto('/auth/login/');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/auth\/reset-password\/?$/);
  // The address changes before the page's chunk has loaded: until then the login page, whose field is also "Email",
  // is still on screen (seen under load, where the address was typed into the login form).
  await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
  await page.getByLabel('Email').fill(user.email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page).toHaveURL(/\/auth\/reset-password\/sent\/?$/);
  await expect(page.getByText('Check your inbox')).toBeVisible();

  const mail = await latestEmailTo(page.request, user.email, (m) =>
    m.text.includes(tokenLinkPages['reset-password']),
  );
  const link = linkIn(mail.text, tokenLinkPages['reset-password']);
  await page.goto(link);
  const newPassword = page.getByLabel('New password', { exact: true });
  await newPassword.fill('weak');
  const checklist = page.getByRole('list', { name: 'Password requirements' });
  await expect(checklist.getByRole('listitem').filter({ hasText: 'At least 1 number' })).toHaveAttribute(
    'data-met',
    'false',
  );
  await newPassword.fill(NEW_PASSWORD);
  await expect(checklist.getByRole('listitem').filter({ hasText: 'At least 1 number' })).toHaveAttribute(
    'data-met',
    'true',
  );
  await page.getByLabel('Confirm new password').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page).toHaveURL(/\/auth\/login/);
  await expect(page.getByText('Password reset')).toBeVisible();

  // The old password no longer works, the new one does.
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByText('Unable to log in with the provided e-mail and password.')).toBeVisible();
  await page.getByLabel('Password').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/settings\/my-account\/?$/);

  // The link was for one use only.
  await page.goto(link);
  await expect(page).toHaveURL(/\/auth\/reset-password\/confirm\/invalid\/?$/);
  await expect(page.getByText('This link is invalid or has expired')).toBeVisible();

  // The other device was logged out by the reset.
  await otherPage.goto('/settings/my-account');
  await expect(otherPage).toHaveURL(/\/auth\/login/);
  await otherDevice.close();
});

test('asking for a reset of an unknown address gets the same answer', async ({ page }) => {
  await page.goto('/auth/reset-password/');
  await page.getByLabel('Email').fill('nobody-at-all@example.test');
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page).toHaveURL(/\/auth\/reset-password\/sent\/?$/);
});
