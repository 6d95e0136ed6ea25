import type { APIRequestContext } from '@playwright/test';
import sharp from 'sharp';
import { createCompany, expect, signUpVerified, test } from './fixtures.ts';

/**
 * The form page (issue 13 items 12 and 16): its preview of the public page follows the form without a reload, and
 * what the page shows only visually (the preview frame, close buttons, "Copied") has a name or is announced.
 */

async function inactiveForm(request: APIRequestContext, account: number, name: string) {
  const csrf = ((await (await request.post('/api/auth/csrf')).json()) as { csrfToken: string }).csrfToken;
  const created = await request.post('/api/verify-forms', {
    headers: { 'X-CSRFToken': csrf },
    data: { account, name },
  });
  expect(created.status(), await created.text()).toBe(201);
  return (await created.json()) as { id: number; publicId: string };
}

const bannerFile = async () => ({
  name: 'banner.png',
  mimeType: 'image/png',
  buffer: await sharp({ create: { width: 1200, height: 300, channels: 3, background: '#3355cc' } })
    .png()
    .toBuffer(),
});

for (const viewport of [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 375, height: 800 },
]) {
  test(`the preview follows the form: activated, then a banner uploaded (${viewport.name})`, async ({
    page,
    user,
  }) => {
    await page.setViewportSize(viewport);
    await signUpVerified(page.request, user);
    const { account } = await createCompany(page.request, `Preview ${user.lastName}`);
    const form = await inactiveForm(page.request, account.id, 'Spring sign-ups');

    await page.goto(`/forms/${form.id}`);
    const frame = page.locator('iframe');
    await frame.scrollIntoViewIfNeeded();
    await expect(frame).toHaveAccessibleName('Preview of Spring sign-ups');
    const preview = page.frameLocator('iframe');
    await expect(preview.getByRole('heading', { name: 'Spring sign-ups' })).toBeVisible();
    const inactiveNotice = preview.getByText('Preview: this form is inactive', { exact: false });
    await expect(inactiveNotice).toBeVisible();

    await page.getByRole('switch', { name: 'Active' }).click();
    await expect(page.getByText('Form activated')).toBeVisible();
    // The frame shows the live page now: no preview notice, sending enabled.
    await expect(inactiveNotice).toHaveCount(0);
    await expect(preview.getByRole('heading', { name: 'Spring sign-ups' })).toBeVisible();

    await page.getByRole('button', { name: 'Upload banner' }).click();
    const upload = page.getByRole('dialog', { name: 'Upload image' });
    await upload.getByLabel('Image file').setInputFiles(await bannerFile());
    await upload.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Banner uploaded')).toBeVisible();
    const bannerSrc = await page.getByRole('img', { name: 'Banner' }).getAttribute('src');
    expect(bannerSrc).toMatch(/^\/media\//);
    await expect(preview.locator(`img[src="${bannerSrc}"]`)).toBeVisible();
  });
}

test('close buttons of dialogs and toasts are named; "Copied" is announced', async ({ page, user }) => {
  await signUpVerified(page.request, user);
  const { account } = await createCompany(page.request, `Names ${user.lastName}`);
  const form = await inactiveForm(page.request, account.id, 'Autumn drafts');
  await page.goto(`/forms/${form.id}`);

  // Every dialog's close button says what it does.
  await page.getByRole('button', { name: 'Upload banner' }).click();
  const upload = page.getByRole('dialog', { name: 'Upload image' });
  await upload.getByRole('button', { name: 'Close' }).click();
  await expect(upload).toBeHidden();
  await page.goto('/forms/');
  await page.getByRole('button', { name: 'New form' }).first().click();
  const newForm = page.getByRole('dialog', { name: 'New form' });
  await newForm.getByRole('button', { name: 'Close' }).click();
  await expect(newForm).toBeHidden();

  // A toast's close button too.
  await page.getByRole('switch', { name: 'Active: Autumn drafts' }).click();
  const toast = page.getByRole('alert').filter({ hasText: 'Form activated' });
  await expect(toast).toBeVisible();
  await toast.getByRole('button', { name: 'Close notification' }).click();
  await expect(toast).toBeHidden();

  // Copy link: the tooltip is for the eyes, a status message for screen readers.
  await page.goto(`/forms/${form.id}`);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  const status = page.getByRole('status').filter({ hasText: 'Public link copied' });
  await expect(status).toHaveCount(0);
  await page.getByRole('button', { name: 'Copy link' }).click();
  await expect(status).toHaveCount(1);
  await expect(status).toHaveAttribute('aria-live', 'polite');
});
