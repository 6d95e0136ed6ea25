import sharp from 'sharp';
import { expect, signUpOwner, test } from './fixtures.ts';

test('an owner creates a form, uploads a banner, switches it live and finds it in the filtered list', async ({
  page,
  user,
}) => {
  await signUpOwner(page.request, user);
  await page.goto('/forms/');
  await expect(page.getByRole('heading', { name: 'Forms' })).toBeVisible();
  // A new account is taught what a form is.
  await expect(page.getByText('A verification form is a hosted page', { exact: false })).toBeVisible();

  await page.getByRole('button', { name: 'New form' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'New form' });
  await dialog.getByLabel('Name').fill('Spring sign-ups');
  await dialog.getByRole('button', { name: 'Create form' }).click();
  await expect(page).toHaveURL(/\/forms\/\d+\/?$/);
  await expect(page.getByText('Form created')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Spring sign-ups' })).toBeVisible();

  // Edit: language and category.
  await page.getByLabel('Category').fill('Marketing');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Form saved')).toBeVisible();

  // Banner: checked by content, then shown.
  const banner = await sharp({ create: { width: 1200, height: 400, channels: 3, background: '#22aa88' } })
    .jpeg()
    .toBuffer();
  await page.getByRole('button', { name: 'Upload banner' }).click();
  const upload = page.getByRole('dialog', { name: 'Upload image' });
  await upload
    .getByLabel('Image file')
    .setInputFiles({ name: 'banner.jpg', mimeType: 'image/jpeg', buffer: banner });
  await upload.getByRole('button', { name: 'Save' }).click();
  await expect(upload).toBeHidden();
  await expect(page.getByRole('img', { name: 'Banner' })).toHaveAttribute(
    'src',
    /\/media\/[0-9a-f]{64}\.webp$/,
  );

  // Live, and its public link is shown.
  // The switch flips once the app has applied the change: click as a person does, then wait for it.
  const live = page.getByRole('switch', { name: 'Active' });
  await live.click();
  await expect(live).toBeChecked();
  await expect(page.getByRole('textbox', { name: 'Public link' })).toHaveValue(/\/f\/[A-Za-z0-9_-]+$/);

  // In the list: a second, inactive form; the Active filter keeps only the live one, and the URL says so.
  await page.goto('/forms/');
  await page.getByRole('button', { name: 'New form' }).first().click();
  await page.getByRole('dialog', { name: 'New form' }).getByLabel('Name').fill('Autumn drafts');
  await page.getByRole('dialog', { name: 'New form' }).getByRole('button', { name: 'Create form' }).click();
  await expect(page).toHaveURL(/\/forms\/\d+\/?$/);
  await page.goto('/forms/?status=active');
  const table = page.getByRole('table', { name: 'Forms' });
  await expect(table.getByRole('link', { name: 'Spring sign-ups' })).toBeVisible();
  await expect(table.getByRole('link', { name: 'Autumn drafts' })).toHaveCount(0);

  // A bad value in a shared link falls back instead of breaking the page.
  await page.goto('/forms/?status=bogus&pageNumber=-4&language=fr');
  await expect(table.getByRole('link', { name: 'Autumn drafts' })).toBeVisible();
  await expect(table.getByRole('link', { name: 'Spring sign-ups' })).toBeVisible();

  // Toggle from the list.
  const autumn = page.getByRole('switch', { name: 'Active: Autumn drafts' });
  await autumn.click();
  await expect(autumn).toBeChecked();
  await expect(page.getByText('Form activated')).toBeVisible();
  await page.goto('/forms/?status=inactive');
  await expect(page.getByText('No forms match these filters')).toBeVisible();
});

test("another account's form is not found", async ({ page, browser, user }) => {
  await signUpOwner(page.request, user);
  await page.goto('/forms/');
  await page.getByRole('button', { name: 'New form' }).first().click();
  await page.getByRole('dialog', { name: 'New form' }).getByLabel('Name').fill('Private form');
  await page.getByRole('dialog', { name: 'New form' }).getByRole('button', { name: 'Create form' }).click();
  await expect(page).toHaveURL(/\/forms\/\d+\/?$/);
  const formPath = new URL(page.url()).pathname;

  const strangerContext = await browser.newContext();
  await signUpOwner(strangerContext.request);
  const stranger = await strangerContext.newPage();
  await stranger.goto(formPath);
  await expect(stranger.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
  await strangerContext.close();
});
