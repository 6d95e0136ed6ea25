import { randomBytes } from 'node:crypto';
import { createCompany, expect, signUpVerified, test } from './fixtures.ts';
import { expectNoSidewaysScroll } from './layout';

/**
 * Issue #15: an owner makes a test key in Settings → API keys, sees and copies its secret once, and a script (this
 * test's own HTTP client, without the browser's cookies) uses it; revoked in the page, the key answers 401 at once.
 */
test('an owner creates a test key, copies it once, uses it from a script, and revokes it', async ({
  page,
  request,
  user,
}) => {
  await signUpVerified(page.request, user);
  await createCompany(page.request, `Keys ${user.lastName}`);
  // The script's own address (a documentation range), so the page can show where the key was last used from.
  const scriptAddress = `203.0.113.${randomBytes(1)[0] ?? 1}`;
  // A key's door is API v1 (the session API answers a key 403: issue #33).
  const useKey = (key: string) =>
    request.get('/api/v1/forms', {
      headers: { Authorization: `Bearer ${key}`, 'X-Forwarded-For': scriptAddress },
    });

  await page.goto('/settings/api-keys');
  await expect(page.getByRole('tab', { name: 'API keys' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByText('No API keys yet')).toBeVisible();
  await expect(page.getByRole('link', { name: 'API reference' })).toHaveAttribute('href', '/docs/api');

  await page.getByRole('button', { name: 'Create API key' }).click();
  const form = page.getByRole('dialog', { name: 'Create API key' });
  await form.getByLabel('Name').fill('CRM sync');
  await expect(form.getByRole('radio', { name: 'Test' })).toBeChecked();
  await form.getByRole('checkbox', { name: 'forms:read' }).check();
  await form.getByRole('button', { name: 'Create key' }).click();

  // The secret, once: shown in full, copied to the clipboard, then gone when the dialog closes.
  const shown = page.getByRole('dialog', { name: 'Your new API key' });
  await expect(shown.getByText('Copy this key now. You won’t be able to see it again.')).toBeVisible();
  const key = await shown.getByRole('textbox', { name: 'Secret key' }).inputValue();
  expect(key).toMatch(/^vf_test_[0-9A-Za-z]{40,}$/);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await shown.getByRole('button', { name: 'Copy key' }).click();
  await expect(shown.getByRole('button', { name: 'Copied' })).toBeVisible();
  await expect(shown.getByRole('status')).toHaveText('API key copied');
  expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(key);
  await shown.getByRole('button', { name: 'Done' }).click();
  await expect(shown).toBeHidden();

  const table = page.getByRole('table', { name: 'API keys' });
  const row = table.getByRole('row').filter({ hasText: 'CRM sync' });
  await expect(row.getByText(`${key.slice(0, 12)}…`)).toBeVisible();
  await expect(row.getByText('Test', { exact: true })).toBeVisible();
  await expect(row.getByText('forms:read')).toBeVisible();
  await expect(row.getByText('Never')).toBeVisible();
  await expect(row.getByText('Active')).toBeVisible();
  expect(await page.content()).not.toContain(key);

  // The script reads the account's forms with the key alone.
  const allowed = await useKey(key);
  expect(allowed.status(), await allowed.text()).toBe(200);
  await page.reload();
  await expect(row.getByText(scriptAddress)).toBeVisible();
  await expect(row.getByText('Never')).toHaveCount(0);
  expect(await page.content()).not.toContain(key);

  await row.getByRole('button', { name: 'Revoke CRM sync' }).click();
  const confirm = page.getByRole('dialog', { name: 'Revoke “CRM sync”?' });
  await expect(confirm.getByText('Requests using it will fail at once.')).toBeVisible();
  await confirm.getByRole('button', { name: 'Revoke key' }).click();
  await expect(page.getByText('API key revoked')).toBeVisible();
  await expect(row.getByText(/^Revoked on/)).toBeVisible();
  await expect(row.getByRole('button', { name: 'Revoke CRM sync' })).toHaveCount(0);

  const refused = await useKey(key);
  expect(refused.status(), await refused.text()).toBe(401);
});

test('at phone width the keys are cards and the new secret shows whole, nothing past the edge', async ({
  page,
  user,
}) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await signUpVerified(page.request, user);
  const { account } = await createCompany(page.request, `Keys ${user.lastName}`);
  const csrf = (await (await page.request.post('/api/auth/csrf')).json()) as { csrfToken: string };
  const made = await page.request.post('/api/api-keys', {
    headers: { 'X-CSRFToken': csrf.csrfToken },
    data: {
      account: account.id,
      name: 'Call-center tool in the Lisbon office',
      mode: 'live',
      scopes: ['verifications:write', 'verifications:read', 'forms:read'],
    },
  });
  expect(made.status(), await made.text()).toBe(201);

  await page.goto('/settings/api-keys');
  const cards = page.getByRole('list', { name: 'API keys' });
  await expect(cards.getByText('Call-center tool in the Lisbon office')).toBeVisible();
  await expect(
    cards.getByRole('button', { name: 'Revoke Call-center tool in the Lisbon office' }),
  ).toBeVisible();
  await expect(page.getByRole('table', { name: 'API keys' })).toHaveCount(0);
  await expectNoSidewaysScroll(page);

  await page.getByRole('button', { name: 'Create API key' }).click();
  const form = page.getByRole('dialog', { name: 'Create API key' });
  await form.getByLabel('Name').fill('Phone check');
  await form.getByRole('checkbox', { name: 'forms:read' }).check();
  await form.getByRole('button', { name: 'Create key' }).click();
  const secret = page
    .getByRole('dialog', { name: 'Your new API key' })
    .getByRole('textbox', { name: 'Secret key' });
  await expect(secret).toHaveValue(/^vf_test_/);
  // The whole key is in view: the box neither scrolls nor is cut off.
  expect(await secret.evaluate((box) => box.scrollHeight <= box.clientHeight + 1)).toBe(true);
  expect(await secret.evaluate((box) => box.getBoundingClientRect().right <= 375)).toBe(true);
});
