import { type APIRequestContext, request as playwrightRequest } from '@playwright/test';
import { expect, latestEmailTo, newUser, signUpOwner, test } from './fixtures.ts';

/**
 * Issue #33 item 2 (ADR 30): keys and endpoints belong to the owner who made them. Owner B makes a key, another key and
 * an endpoint; owner A removes B from the team, keeping one key; the keys list (not reloaded) shows the other revoked
 * and the kept one active, each with who created it, and the endpoint disabled.
 */

async function csrf(request: APIRequestContext): Promise<string> {
  return ((await (await request.post('/api/auth/csrf')).json()) as { csrfToken: string }).csrfToken;
}

test('an owner removed from the team: their keys revoked and endpoints disabled, but the one kept', async ({
  page,
  baseURL,
  user,
}) => {
  const owner = await signUpOwner(page.request, user);
  const accountId = (
    (await (await page.request.get('/api/memberships')).json()) as { results: { account: { id: number } }[] }
  ).results[0]?.account.id;
  if (!accountId) throw new Error('no account');

  // B is invited as an owner and joins through the API, from their own client.
  const b = newUser();
  const bName = `${b.firstName} ${b.lastName}`;
  const invited = await page.request.post('/api/invitations', {
    headers: { 'X-CSRFToken': await csrf(page.request) },
    data: { accountId, email: b.email, role: 'owner' },
  });
  expect(invited.status(), await invited.text()).toBe(201);
  const key = (await latestEmailTo(page.request, b.email)).text.match(/[?&]key=([^\s&]+)/)?.[1];
  if (!key) throw new Error('no invitation key in the e-mail');
  const bRequest = await playwrightRequest.newContext({
    baseURL,
    extraHTTPHeaders: { 'X-Forwarded-For': `198.51.100.${Math.floor(Math.random() * 250) + 1}` },
  });
  const signup = await bRequest.post('/api/auth/signup', {
    headers: { 'X-CSRFToken': await csrf(bRequest) },
    data: { ...b, passwordConfirm: b.password },
  });
  expect(signup.status(), await signup.text()).toBe(200);
  const accepted = await bRequest.post('/api/invitations/accept', {
    headers: { 'X-CSRFToken': await csrf(bRequest) },
    data: { key: decodeURIComponent(key) },
  });
  expect(accepted.status(), await accepted.text()).toBe(200);

  // B makes two keys and an endpoint.
  const made: Record<string, string> = {};
  for (const name of ['B kept key', 'B revoked key']) {
    const created = await bRequest.post('/api/api-keys', {
      headers: { 'X-CSRFToken': await csrf(bRequest) },
      data: { account: accountId, name, mode: 'test', scopes: ['forms:read'] },
    });
    expect(created.status(), await created.text()).toBe(201);
    made[name] = ((await created.json()) as { prefix: string }).prefix;
  }
  const endpoint = await bRequest.post('/api/webhook-endpoints', {
    headers: { 'X-CSRFToken': await csrf(bRequest) },
    data: { account: accountId, url: 'http://127.0.0.1:9/owned-credentials', eventTypes: ['*'] },
  });
  expect(endpoint.status(), await endpoint.text()).toBe(201);
  await bRequest.dispose();

  // A sees who created each key and endpoint; both lists are now in the page's cache (fresh for 30 s).
  await page.goto('/settings/webhooks');
  const endpoints = page.getByRole('table', { name: 'Webhook endpoints' });
  const endpointRow = endpoints.getByRole('row').filter({ hasText: 'owned-credentials' });
  await expect(endpointRow.getByText('Enabled', { exact: true })).toBeVisible();
  await expect(endpointRow.getByText(bName)).toBeVisible();
  await page.getByRole('tab', { name: 'API keys' }).click();
  const keys = page.getByRole('table', { name: 'API keys' });
  const keptRow = keys.getByRole('row').filter({ hasText: 'B kept key' });
  const revokedRow = keys.getByRole('row').filter({ hasText: 'B revoked key' });
  await expect(keptRow.getByText(bName)).toBeVisible();
  await expect(revokedRow.getByText('Active')).toBeVisible();

  // A removes B, keeping one key: the dialog lists what goes, each unticked.
  await page.getByRole('tab', { name: 'Manage Team' }).click();
  await page.getByRole('button', { name: `Remove ${bName}` }).click();
  const dialog = page.getByRole('dialog', { name: `Remove ${bName}?` });
  const keepBox = dialog.getByRole('checkbox', { name: `Keep B kept key (${made['B kept key']}…)` });
  await expect(keepBox).not.toBeChecked();
  await expect(
    dialog.getByRole('checkbox', { name: `Keep B revoked key (${made['B revoked key']}…)` }),
  ).not.toBeChecked();
  await expect(
    dialog.getByRole('checkbox', { name: 'Keep http://127.0.0.1:9/owned-credentials' }),
  ).not.toBeChecked();
  await keepBox.check();
  await dialog.getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByRole('table', { name: 'Team members' }).getByText(b.email)).toHaveCount(0);

  // Back to the keys through the app (no reload): the list is read again.
  await page.getByRole('tab', { name: 'API keys' }).click();
  await expect(revokedRow.getByText(/^Revoked on/)).toBeVisible();
  await expect(keptRow.getByText('Active')).toBeVisible();
  await expect(keptRow.getByText(bName)).toBeVisible();
  await expect(revokedRow.getByText(bName)).toBeVisible();

  await page.getByRole('tab', { name: 'Webhooks' }).click();
  await expect(endpointRow.getByText('Disabled', { exact: true })).toBeVisible();
  await expect(endpointRow.getByText(bName)).toBeVisible();
  expect(owner.company).toBeTruthy();
});
