import { tokenLinkPages } from '@veriform/contracts/page-paths';
import sharp from 'sharp';
import { expect, latestEmailTo, linkIn, newUser, signUpVerified, test } from './fixtures.ts';

test.beforeEach(async ({ page, user }) => {
  await signUpVerified(page.request, user);
  await page.goto('/settings/my-account');
});

test('the name is read-only until edited, saved on submit and reverted on blur', async ({ page, user }) => {
  const name = page.getByLabel('Name', { exact: true });
  await expect(name).toHaveValue(`${user.firstName} ${user.lastName}`);
  await expect(name).toHaveAttribute('readonly', '');

  await page.getByRole('button', { name: 'Edit name' }).click();
  await name.fill('Ada Lovelace');
  await name.press('Enter');
  await expect(page.getByText('Name updated')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Ada Lovelace');

  await page.getByRole('button', { name: 'Edit name' }).click();
  await page.getByLabel('Name', { exact: true }).fill('Somebody Else');
  await page.getByRole('heading', { name: 'Settings' }).click();
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Ada Lovelace');
});

test('changing the password needs the current one and keeps this session', async ({
  page,
  browser,
  user,
}) => {
  const otherDevice = await browser.newContext({ storageState: await page.context().storageState() });
  const otherPage = await otherDevice.newPage();

  const card = page.getByRole('region', { name: 'Reset Password' });
  await card.getByLabel('Current password').fill('not my password 1!');
  await card.getByLabel('New password', { exact: true }).fill('a better secret 8$');
  await card.getByLabel('Confirm new password').fill('a better secret 8$');
  await card.getByRole('button', { name: 'Update password' }).click();
  await expect(card.getByText('Your current password was entered incorrectly.')).toBeVisible();

  await card.getByLabel('Current password').fill(user.password);
  await card.getByRole('button', { name: 'Update password' }).click();
  await expect(page.getByText('Your password has been updated successfully.')).toBeVisible();
  await expect(page.getByText('Updated password')).toBeVisible();

  await page.reload();
  await expect(page).toHaveURL(/\/settings\/my-account\/?$/);
  await otherPage.goto('/settings/my-account');
  await expect(otherPage).toHaveURL(/\/auth\/login/);
  await otherDevice.close();
});

test('the e-mail address changes once the new address confirms it', async ({ page, user }) => {
  const target = newUser().email;
  const email = page.getByLabel('Email', { exact: true });
  await expect(email).toHaveValue(user.email);
  await page.getByRole('button', { name: 'Edit email' }).click();
  await expect(page.getByRole('button', { name: 'Send Verification' })).toHaveCount(0);
  await email.fill(target);
  // Sending needs the current password; a wrong one is said on the password, not on the address.
  const password = page.getByLabel('Password', { exact: true });
  await password.fill('not my password 1!');
  await page.getByRole('button', { name: 'Send Verification' }).click();
  await expect(page.getByText('Your current password was entered incorrectly.')).toBeVisible();
  await expect(email).not.toHaveAttribute('aria-invalid', 'true');
  await password.fill(user.password);
  await page.getByRole('button', { name: 'Send Verification' }).click();
  await expect(page.getByText('Sent Verification Email')).toBeVisible();
  await expect(page.getByText(`Sent to ${target}.`)).toBeVisible();

  // Resend is not offered while the server would refuse it: the button counts down (issue 13 item 14).
  await page.getByRole('button', { name: 'Edit email' }).click();
  await email.fill(target);
  const resend = page.getByRole('button', { name: /^Resend Verification \(\d+ s\)$/ });
  await expect(resend).toBeDisabled();
  await expect(email).not.toHaveAttribute('aria-invalid', 'true');
  await page.getByRole('button', { name: 'Cancel' }).click();

  // The old address is told at once, with a link to cancel.
  const notice = await latestEmailTo(page.request, user.email, (m) =>
    /change .*was requested/i.test(m.subject ?? ''),
  );
  expect(notice.text).toContain(target);
  expect(notice.text).toContain(tokenLinkPages['change-email-cancel']);

  await page.getByRole('button', { name: 'Refresh Status' }).click();
  await expect(page.getByText('Not Yet Changed')).toBeVisible();
  await expect(page.getByText(`Your email has not yet been changed to ${target}.`)).toBeVisible();

  // The new address confirms in another tab; this tab hears of it and says so.
  const mail = await latestEmailTo(page.request, target);
  const other = await page.context().newPage();
  await other.goto(linkIn(mail.text, tokenLinkPages['change-email']));
  await other.getByRole('button', { name: 'Confirm new e-mail address' }).click();
  await expect(other).toHaveURL(/\/auth\/change-email\/confirm\/success\/?$/);
  await other.close();

  await expect(page.getByText(`Your email has been successfully changed to ${target}.`)).toBeVisible();
  await expect(page.getByLabel('Email', { exact: true })).toHaveValue(target);
  // The old address is told.
  await latestEmailTo(page.request, user.email, (m) => /changed/i.test(m.subject ?? ''));
});

test('an address another user has cannot be taken', async ({ page, user }) => {
  const someoneElse = newUser();
  const otherContext = await page.context().browser()?.newContext();
  if (!otherContext) throw new Error('no browser');
  await signUpVerified(otherContext.request, someoneElse);
  await otherContext.close();

  await page.getByRole('button', { name: 'Edit email' }).click();
  await page.getByLabel('Email', { exact: true }).fill(someoneElse.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Send Verification' }).click();
  await expect(page.getByText('A user with that e-mail address already exists.')).toBeVisible();
});

test('the old address cancels a change it did not ask for; the link then leads to the invalid page', async ({
  page,
  browser,
  user,
}) => {
  const target = newUser().email;
  await page.getByRole('button', { name: 'Edit email' }).click();
  await page.getByLabel('Email', { exact: true }).fill(target);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Send Verification' }).click();
  await expect(page.getByText('Sent Verification Email')).toBeVisible();

  // The owner of the old mailbox, on another device (not logged in), cancels from the notice.
  const notice = await latestEmailTo(page.request, user.email, (m) =>
    /change .*was requested/i.test(m.subject ?? ''),
  );
  const cancelLink = linkIn(notice.text, tokenLinkPages['change-email-cancel']);
  const mailbox = await browser.newContext();
  const other = await mailbox.newPage();
  await other.goto(cancelLink);
  await expect(other.getByRole('heading', { name: 'Cancel the e-mail address change' })).toBeVisible();
  await other.getByRole('button', { name: 'Cancel the change' }).click();
  await expect(other).toHaveURL(/\/auth\/change-email\/cancel\/success\/?$/);
  await expect(other.getByRole('heading', { name: 'The change was cancelled' })).toBeVisible();
  // Used once: opening it again leads to the invalid page; the confirmation link is dead too.
  await other.goto(cancelLink);
  await expect(other).toHaveURL(/\/auth\/change-email\/cancel\/invalid\/?$/);
  const confirmMail = await latestEmailTo(page.request, target);
  await other.goto(linkIn(confirmMail.text, tokenLinkPages['change-email']));
  await expect(other).toHaveURL(/\/auth\/change-email\/confirm\/invalid\/?$/);
  await mailbox.close();

  await page.reload();
  await expect(page.getByLabel('Email', { exact: true })).toHaveValue(user.email);
  await expect(page.getByTestId('email-change-request')).toHaveCount(0);
});

test('a profile picture is uploaded, shown in the top bar, and deleted', async ({ page }) => {
  const png = await sharp({ create: { width: 1600, height: 900, channels: 3, background: '#3355ff' } })
    .png()
    .toBuffer();

  await page.getByRole('button', { name: 'Upload picture' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upload image' });
  await expect(dialog.getByText('Upload a picture under 1 MB and less than 1024 x 1024.')).toBeVisible();

  // Not an image, whatever its name says.
  await dialog
    .getByLabel('Image file')
    .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: Buffer.from('#!/bin/sh\necho hi\n') });
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText(/File type must be/)).toBeVisible();

  await dialog.getByLabel('Image file').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();

  const avatar = page.getByRole('button', { name: 'Account menu' }).locator('img');
  await expect(avatar).toHaveAttribute('src', /\/media\/[0-9a-f]{64}\.webp$/);
  const src = await avatar.getAttribute('src');
  const served = await page.request.get(src ?? '');
  expect(served.headers()['content-type']).toBe('image/webp');
  const meta = await sharp(await served.body()).metadata();
  expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBeLessThanOrEqual(1024);

  await page.getByRole('button', { name: 'Delete picture' }).click();
  await expect(page.getByRole('button', { name: 'Account menu' }).locator('img')).toHaveCount(0);
});

test('the close-account note points to support and the forgot-password link is there', async ({ page }) => {
  await expect(page.getByRole('link', { name: 'support@veriform.app' })).toHaveAttribute(
    'href',
    'mailto:support@veriform.app',
  );
  await expect(page.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute(
    'href',
    /\/auth\/reset-password/,
  );
});
