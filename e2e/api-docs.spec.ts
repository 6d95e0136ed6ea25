import { expect, test } from './fixtures.ts';

/**
 * Issue #15: the API reference at /docs/api renders the generated OpenAPI document in the browser under the app's
 * Content-Security-Policy (Scalar's build from our own origin, no inline script), with the quick start and an example
 * per endpoint. No login: the reference is public.
 */
test('the API reference renders the document with its quick start and examples, and breaks no policy', async ({
  page,
}) => {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));

  await page.goto('/docs/api');
  await expect(page).toHaveTitle('Veriform API reference');
  await expect(page.getByRole('heading', { name: 'Veriform API', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Quick start' })).toBeVisible();
  await expect(page.getByText('Start a verification').first()).toBeVisible();
  await expect(page.getByText('Check a code').first()).toBeVisible();
  // The error table, with the codes an integrator matches on.
  await expect(page.getByText('test_mode_number_required').first()).toBeVisible();
  expect(problems.filter((text) => /Content Security Policy|Refused to/i.test(text))).toEqual([]);
});
