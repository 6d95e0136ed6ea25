import { tokenLinkPages, tokenLinkPath } from '@veriform/contracts/page-paths';
import { expect, latestEmailTo, linkIn, test } from './fixtures.ts';

test('a newcomer signs up, verifies the e-mail from the link, logs out and logs back in', async ({
  page,
  user,
}) => {
  await page.goto('/auth/signup/');
  await page.getByLabel('First name').fill(user.firstName);
  await page.getByLabel('Last name').fill(user.lastName);
  await page.getByLabel('Email').fill(user.email);

  // The live checklist reacts to every keystroke.
  const password = page.getByLabel('Password', { exact: true });
  const checklist = page.getByRole('list', { name: 'Password requirements' });
  await password.fill('abc');
  await expect(
    checklist.getByRole('listitem').filter({ hasText: 'At least 9 characters long' }),
  ).toHaveAttribute('data-met', 'false');
  await expect(checklist.getByRole('listitem').filter({ hasText: 'At least 1 number' })).toHaveAttribute(
    'data-met',
    'false',
  );
  await password.fill(user.password);
  for (const rule of [
    'At least 9 characters long',
    'At least 1 number',
    'At least 1 special character, !@#$&*%?',
  ]) {
    await expect(checklist.getByRole('listitem').filter({ hasText: rule })).toHaveAttribute(
      'data-met',
      'true',
    );
  }
  await page.getByLabel('Confirm password').fill(user.password);
  await page.getByRole('button', { name: 'Sign up' }).click();

  await expect(page).toHaveURL(/\/auth\/signup\/verify-email\/?$/);
  await expect(page.getByText(user.email)).toBeVisible();

  // The verification e-mail arrives in the development outbox, where a person would click its link.
  await page.goto('/dev/outbox');
  const mail = await latestEmailTo(page.request, user.email);
  const link = linkIn(mail.text, tokenLinkPages['verify-email']);
  await page.getByRole('link', { name: link }).first().click();
  await expect(page).toHaveURL(/\/auth\/verify-email\/confirm\/[^/]+\/[^/]+\/?$/);
  await page.getByRole('button', { name: 'Confirm e-mail address' }).click();
  await expect(page).toHaveURL(/\/auth\/verify-email\/confirm\/success\/?$/);
  await page.getByRole('link', { name: 'Continue' }).click();

  // A newcomer has no company yet: creating one is the last step of signing up.
  await expect(page).toHaveURL(/\/auth\/signup\/complete\/?$/);
  await page.getByLabel('Company name').fill(`Acme ${user.lastName}`);
  await page.getByRole('button', { name: 'Create company' }).click();

  // In the app: the authenticated layout, its sidebar showing an owner every link.
  await expect(page).toHaveURL(/\/dashboard\/?$/);
  const nav = page.getByRole('navigation');
  for (const link of ['Dashboard', 'Activity Log', 'Forms']) {
    await expect(nav.getByRole('link', { name: link })).toBeVisible();
  }
  await expect(page.getByText(`© ${new Date().getFullYear()} Veriform`)).toBeVisible();
  await page.goto('/settings/my-account');
  await expect(page.getByText(user.email).first()).toBeVisible();

  // The link works once: opening it again lands on the invalid page.
  await page.goto(link);
  await expect(page).toHaveURL(/\/auth\/verify-email\/confirm\/invalid\/?$/);

  // Log out from the account menu.
  await page.goto('/settings/my-account');
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/auth\/login\/?/);

  // A protected page now sends us to the login page; logging in brings us into the app.
  await page.goto('/settings/my-account');
  await expect(page).toHaveURL(/\/auth\/login/);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/settings\/my-account\/?$/);
  await expect(page.getByText(user.email).first()).toBeVisible();
});

test('an unverified user is held at the verify-email page until the link is used', async ({ page, user }) => {
  await page.goto('/auth/signup/');
  await page.getByLabel('First name').fill(user.firstName);
  await page.getByLabel('Last name').fill(user.lastName);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByLabel('Confirm password').fill(user.password);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page).toHaveURL(/\/auth\/signup\/verify-email\/?$/);

  // The gate keeps an unverified user out of the app.
  await page.goto('/settings/my-account');
  await expect(page).toHaveURL(/\/auth\/signup\/verify-email\/?$/);

  // Resend sends a second e-mail and says so.
  await page.getByRole('button', { name: 'Resend' }).click();
  await expect(page.getByText('Sent Verification Email')).toBeVisible();
  await expect(page.getByText(`Sent to ${user.email}.`)).toBeVisible();

  // Confirming in another tab moves this one on by itself.
  const mail = await latestEmailTo(page.request, user.email);
  const other = await page.context().newPage();
  await other.goto(linkIn(mail.text, tokenLinkPages['verify-email']));
  await other.getByRole('button', { name: 'Confirm e-mail address' }).click();
  await expect(other).toHaveURL(/\/auth\/verify-email\/confirm\/success\/?$/);
  await page.bringToFront();
  await expect(page).toHaveURL(/\/auth\/signup\/verify-email\/success\/?$/, { timeout: 15_000 });
});

test('a tampered verification link goes to the invalid page', async ({ page }) => {
  await page.goto(tokenLinkPath('verify-email', 'MQ', 'zzzz-0000000000'));
  await expect(page).toHaveURL(/\/auth\/verify-email\/confirm\/invalid\/?$/);
  await expect(page.getByText('This link is invalid or has expired')).toBeVisible();
});
