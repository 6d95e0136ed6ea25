import { randomInt } from 'node:crypto';
import type { APIRequestContext, Locator } from '@playwright/test';
import { startWebhookReceiver } from '../apps/server/src/test-support/webhook-receiver.ts';
import {
  createCompany,
  createLiveForm,
  createVerifications,
  expect,
  signUpOwner,
  signUpVerified,
  test,
} from './fixtures.ts';
import { expectNoSidewaysScroll } from './layout';

/**
 * Issue #33 item 14: six screens that showed stale or clipped information, each walked in the browser at the widths
 * the issue names (1280 px desktop, 390 px phone).
 */

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

async function csrfToken(request: APIRequestContext): Promise<string> {
  return ((await (await request.post('/api/auth/csrf')).json()) as { csrfToken: string }).csrfToken;
}

/** The text of `locator` is drawn in full: its box is as wide as what it holds (no ellipsis). */
async function expectNotClipped(locator: Locator) {
  const sizes = await locator.evaluate((element) => ({
    scroll: element.scrollWidth,
    client: element.clientWidth,
  }));
  expect(sizes.scroll, `"${await locator.textContent()}" is clipped`).toBeLessThanOrEqual(sizes.client);
}

test('the endpoint page shows deliveries made while away, and Refresh reads them again', async ({
  page,
  user,
}) => {
  await page.setViewportSize(DESKTOP);
  const receiver = await startWebhookReceiver(() => ({ status: 200, body: '{"received":true}' }));
  try {
    await signUpVerified(page.request, user);
    const { account } = await createCompany(page.request, `Hooks ${user.lastName}`);
    const made = await page.request.post('/api/webhook-endpoints', {
      headers: { 'X-CSRFToken': await csrfToken(page.request) },
      data: { account: account.id, url: receiver.url, description: '', eventTypes: ['*'], enabled: true },
    });
    expect(made.status(), await made.text()).toBe(201);
    const { id } = (await made.json()) as { id: number };
    const sendTest = async () => {
      const sent = await page.request.post(`/api/webhook-endpoints/${id}/send-test`, {
        headers: { 'X-CSRFToken': await csrfToken(page.request) },
      });
      expect(sent.status(), await sent.text()).toBe(202);
      return ((await sent.json()) as { eventId: string }).eventId;
    };
    const delivered = async (eventId: string) =>
      expect
        .poll(async () => {
          const list = await page.request.get(`/api/webhook-endpoints/${id}/deliveries`);
          const body = (await list.json()) as { results: { eventId: string; status: string }[] };
          return body.results.find((d) => d.eventId === eventId)?.status;
        })
        .toBe('succeeded');

    await page.goto(`/settings/webhooks/${id}`);
    await expect(page.getByText('No deliveries yet — send a test event to see one arrive.')).toBeVisible();

    // Away on the list, a delivery happens (sent elsewhere: another tab, the API); back within seconds, it is listed.
    await page.getByRole('link', { name: 'Webhooks', exact: true }).first().click();
    await expect(page).toHaveURL(/\/settings\/webhooks\/?$/);
    const first = await sendTest();
    await delivered(first);
    await page.getByRole('link', { name: receiver.url }).first().click();
    await expect(page.getByRole('heading', { name: receiver.url })).toBeVisible();
    const deliveries = page.getByRole('list', { name: 'Deliveries' });
    await expect(deliveries.getByRole('listitem', { name: `Test event ${first}` })).toBeVisible();
    await expect(deliveries.getByRole('listitem', { name: `Test event ${first}` })).toContainText(
      'Succeeded',
    );

    // Another one while the page is open and nothing is pending (so it is not polling): Refresh reads it.
    const second = await sendTest();
    await delivered(second);
    const refresh = page.getByRole('button', { name: 'Refresh deliveries' });
    await expect(refresh).toBeVisible();
    await refresh.click();
    await expect(deliveries.getByRole('listitem', { name: `Test event ${second}` })).toContainText(
      'Succeeded',
    );
    await expect(deliveries.getByRole('listitem', { name: /^Test event / })).toHaveCount(2);
    await page.screenshot({ path: test.info().outputPath('endpoint-1280.png'), fullPage: true });

    await page.setViewportSize(PHONE);
    await expect(refresh).toBeVisible();
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: test.info().outputPath('endpoint-390.png'), fullPage: true });
  } finally {
    await receiver.close();
  }
});

test('the form page’s preview shows consent version 2 as soon as it is published', async ({ page, user }) => {
  await page.setViewportSize(DESKTOP);
  await signUpVerified(page.request, user);
  const { account } = await createCompany(page.request, `Consent ${user.lastName}`);
  const form = await createLiveForm(page.request, { account: account.id, name: 'Roof quote' });
  const v1 = await page.request.post(`/api/verify-forms/${form.id}/consent-versions`, {
    headers: { 'X-CSRFToken': await csrfToken(page.request) },
    data: { language: 'en', text: 'Version one: Roof Co may text you.', requireCheckbox: false },
  });
  expect(v1.status(), await v1.text()).toBe(201);

  await page.goto(`/forms/${form.id}`);
  const preview = page.frameLocator('iframe[title="Preview of Roof quote"]');
  await page.locator('iframe').scrollIntoViewIfNeeded();
  await expect(preview.getByText('Version one: Roof Co may text you.')).toBeVisible();

  const card = page.getByRole('region', { name: 'Consent text' });
  await card.getByRole('textbox', { name: /New version/ }).fill('Version two: Roof Co may call or text you.');
  await card.getByRole('button', { name: 'Publish version 2' }).click();
  await expect(page.getByText('Consent version 2 published')).toBeVisible();
  await page.locator('iframe').scrollIntoViewIfNeeded();
  await expect(preview.getByText('Version two: Roof Co may call or text you.')).toBeVisible();
  await expect(preview.getByText('Version one: Roof Co may text you.')).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('form-1280.png'), fullPage: true });

  await page.setViewportSize(PHONE);
  await expectNoSidewaysScroll(page);
});

test('the Certificate menu offers the public page right after the first download issues it', async ({
  page,
  user,
}) => {
  await page.setViewportSize(DESKTOP);
  await signUpVerified(page.request, user);
  const { account } = await createCompany(page.request, `Certified ${user.lastName}`);
  const form = await createLiveForm(page.request, { account: account.id, name: 'Loan check' });
  const [made] = await createVerifications(page.request, {
    account: account.id,
    specs: [{ publicId: form.publicId }],
  });
  if (!made) throw new Error('a verification expected');

  await page.goto(`/activity-log/${made.verificationId}`);
  await page.getByRole('button', { name: 'Certificate' }).click();
  const pdf = page.getByRole('menuitem', { name: 'Download certificate (PDF)' });
  await expect(pdf).toBeVisible();
  // Not issued yet: nothing to open.
  await expect(page.getByRole('menuitem', { name: 'Open its public check page' })).toHaveCount(0);
  const [download] = await Promise.all([page.waitForEvent('download'), pdf.click()]);
  expect(download.suggestedFilename()).toMatch(/\.pdf$/);

  // No reload: the menu has the check page now.
  await page.getByRole('button', { name: 'Certificate' }).click();
  const open = page.getByRole('menuitem', { name: 'Open its public check page' });
  await expect(open).toBeVisible();
  await expect(open).toHaveAttribute('href', /^\/certificates\/cert_[\w-]+$/);
  await page.screenshot({ path: test.info().outputPath('certificate-1280.png') });
  await page.keyboard.press('Escape');

  await page.setViewportSize(PHONE);
  await page.getByRole('button', { name: 'Certificate' }).click();
  await expect(page.getByRole('menuitem', { name: 'Open its public check page' })).toBeInViewport();
  await expectNoSidewaysScroll(page);
});

test('the attempts table shows every delivery status badge in full at 1280 px, and cards at 390 px', async ({
  page,
  user,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize(DESKTOP);
  await signUpVerified(page.request, user);
  const { account } = await createCompany(page.request, `Attempts ${user.lastName}`);
  const form = await createLiveForm(page.request, { account: account.id, name: 'Alta' });
  // A test number that simulates "Unreachable (30003)": its code is never delivered.
  const line = `01${String(randomInt(100)).padStart(2, '0')}`;
  const added = await page.request.post('/api/test-phone-numbers', {
    headers: { 'X-CSRFToken': await csrfToken(page.request) },
    data: { account: account.id, cellPhone: `+1415555${line}`, code: '246810', simulatedErrorCode: '30003' },
  });
  expect(added.status(), await added.text()).toBe(201);
  const publicPage = await page.request.get(`/f/${form.publicId}`);
  const initial = (await publicPage.text()).match(
    /<script id="initial-data" type="application\/json">([^<]*)<\/script>/,
  )?.[1];
  const consumerCsrf = (JSON.parse(initial ?? '{}') as { csrfToken: string }).csrfToken;
  const sent = await page.request.post(`/api/public/verify-forms/${form.publicId}/send-code`, {
    headers: { 'X-CSRFToken': consumerCsrf },
    data: { cellPhone: `+1415555${line}`, method: 'sms' },
  });
  expect(sent.status(), await sent.text()).toBe(201);
  // And a delivered one beside it (a test number too: codes to test numbers are test data, issue #33).
  await createVerifications(page.request, {
    account: account.id,
    specs: [{ publicId: form.publicId }],
    mode: 'test',
  });
  await expect
    .poll(
      async () => {
        const list = await page.request.get(`/api/verification-attempts?account=${account.id}&mode=test`);
        const body = (await list.json()) as { results: { deliveryStatus: string }[] };
        return body.results.map((a) => a.deliveryStatus).sort();
      },
      { timeout: 30_000 },
    )
    .toEqual(['delivered', 'undelivered']);

  await page.goto('/activity-log/attempts?mode=test');
  const table = page.getByRole('table', { name: 'Codes sent' });
  const undelivered = table.getByText('Undelivered', { exact: true });
  await expect(undelivered).toBeVisible();
  await expectNotClipped(undelivered);
  await expectNotClipped(table.getByText('Delivered', { exact: true }));
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: test.info().outputPath('attempts-1280.png'), fullPage: true });

  await page.setViewportSize(PHONE);
  const cards = page.getByRole('list', { name: 'Codes sent' });
  const badge = cards.getByText('Undelivered', { exact: true });
  await expect(badge).toBeVisible();
  await expectNotClipped(badge);
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: test.info().outputPath('attempts-390.png'), fullPage: true });
});

test('at 390 px every settings tab is in sight and opens its page', async ({ page, user }) => {
  await page.setViewportSize(PHONE);
  await signUpOwner(page.request, user);

  await page.goto('/settings/company-info');
  const tabs = page.getByRole('tab');
  await expect(tabs).toHaveCount(9);
  for (const [label, path] of [
    ['Company Info', '/settings/company-info'],
    ['Manage Team', '/settings/manage-team'],
    ['API keys', '/settings/api-keys'],
    ['Webhooks', '/settings/webhooks'],
    ['Audit log', '/settings/audit-log'],
    ['Privacy requests', '/settings/privacy-requests'],
    ['Legal holds', '/settings/legal-holds'],
    ['Single sign-on', '/settings/single-sign-on'],
    ['My Account', '/settings/my-account'],
  ] as const) {
    const tab = page.getByRole('tab', { name: label });
    // In sight without scrolling anything sideways.
    await expect(tab).toBeInViewport({ ratio: 1 });
    await tab.click();
    await expect(page).toHaveURL(new RegExp(`${path}/?$`));
    await expect(page.getByRole('tab', { name: label })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('tab', { name: label })).toBeInViewport({ ratio: 1 });
  }
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: test.info().outputPath('settings-tabs-390.png') });

  await page.setViewportSize(DESKTOP);
  const tops = await tabs.evaluateAll((elements) =>
    elements.map((e) => Math.round(e.getBoundingClientRect().top)),
  );
  expect(new Set(tops).size, 'one row of tabs on a desktop').toBe(1);
  await page.screenshot({ path: test.info().outputPath('settings-tabs-1280.png') });
});

test('the audit log names people by name, with the e-mail beside it', async ({ page, user }) => {
  await page.setViewportSize(DESKTOP);
  const owner = await signUpVerified(page.request, user);
  const name = `${owner.firstName} ${owner.lastName}`;
  const { account } = await createCompany(page.request, `Audit ${user.lastName}`);
  // Something the log records, done by the owner.
  const key = await page.request.post('/api/api-keys', {
    headers: { 'X-CSRFToken': await csrfToken(page.request) },
    data: { account: account.id, name: 'CRM', mode: 'test', scopes: ['forms:read'] },
  });
  expect(key.status(), await key.text()).toBe(201);

  await page.goto('/settings/audit-log');
  const events = page.getByRole('table', { name: 'Audit events' });
  const row = events.locator('tbody tr').first();
  const actor = row.getByRole('cell').nth(1);
  await expect(actor).toContainText(name);
  await expect(actor).toContainText(owner.email);
  await page.screenshot({ path: test.info().outputPath('audit-1280.png'), fullPage: true });

  await row.getByRole('button').first().click();
  const drawer = page.getByRole('dialog');
  await expect(drawer).toContainText(name);
  await expect(drawer).toContainText(owner.email);
  await page.keyboard.press('Escape');

  await page.setViewportSize(PHONE);
  const card = page.getByRole('list', { name: 'Audit events' }).getByRole('listitem').first();
  await expect(card).toContainText(name);
  await expect(card).toContainText(owner.email);
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: test.info().outputPath('audit-390.png'), fullPage: true });
});
