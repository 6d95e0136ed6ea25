import { Webhook } from 'standardwebhooks';
import {
  startWebhookReceiver,
  type WebhookReceiver,
} from '../apps/server/src/test-support/webhook-receiver.ts';
import { createCompany, expect, signUpVerified, test } from './fixtures.ts';
import { expectNoSidewaysScroll } from './layout';

/**
 * Issue #17: an owner adds an endpoint in Settings → Webhooks pointing at a real receiver on loopback (the app runs
 * with WEBHOOKS_ALLOW_PRIVATE_URLS, playwright.config.ts), reads its secret, sends a test event that the receiver
 * verifies with standardwebhooks, sees the delivery succeed, and replays it: the same webhook-id arrives again.
 */
let receiver: WebhookReceiver;
test.beforeEach(async () => {
  receiver = await startWebhookReceiver(() => ({ status: 200, body: '{"received":true}' }));
});
test.afterEach(async () => {
  await receiver.close();
});

test('an owner adds an endpoint, sends a test event, sees it delivered and signed, and replays it', async ({
  page,
  user,
}) => {
  await signUpVerified(page.request, user);
  await createCompany(page.request, `Hooks ${user.lastName}`);

  await page.goto('/settings/webhooks');
  await expect(page.getByRole('tab', { name: 'Webhooks' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByText('No endpoints yet')).toBeVisible();
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  const form = page.getByRole('dialog', { name: 'Add endpoint' });
  await form.getByRole('textbox', { name: 'URL' }).fill(receiver.url);
  await form.getByRole('textbox', { name: 'Description' }).fill('Local receiver');
  await expect(form.getByRole('radio', { name: 'All events' })).toBeChecked();
  await form.getByRole('button', { name: 'Add endpoint' }).click();

  // The new endpoint's page: no deliveries yet.
  await expect(page.getByRole('heading', { name: receiver.url })).toBeVisible();
  await expect(page).toHaveURL(/\/settings\/webhooks\/\d+$/);
  await expect(page.getByText('No deliveries yet — send a test event to see one arrive.')).toBeVisible();
  const preview = await page.getByText(/^whsec_.{4}…$/).textContent();

  await page.getByRole('button', { name: 'Reveal secret' }).click();
  const shown = page.getByRole('dialog', { name: 'Signing secret' });
  const secretBox = shown.getByRole('textbox', { name: 'Secret' });
  await expect(secretBox).toHaveValue(/^whsec_/);
  const secret = await secretBox.inputValue();
  expect(preview?.slice(0, 10)).toBe(secret.slice(0, 10));
  await shown.getByRole('button', { name: 'Done' }).click();
  await expect(shown).toBeHidden();

  await page.getByRole('button', { name: 'Send test event' }).click();
  await expect(page.getByText('Test event sent')).toBeVisible();
  const [first] = await receiver.waitFor(1);
  if (!first) throw new Error('a delivery expected');
  const verified = new Webhook(secret).verify(first.body, first.headers) as { type: string };
  expect(verified.type).toBe('webhook.test');
  const eventId = first.headers['webhook-id'] ?? '';
  expect(eventId).toMatch(/^evt_/);

  const delivery = page.getByRole('listitem', { name: `Test event ${eventId}` });
  await expect(delivery.getByText('Succeeded')).toBeVisible();
  const attempts = delivery.getByRole('list', { name: `Attempts of ${eventId}` });
  await expect(attempts.getByText('200', { exact: true })).toBeVisible();
  await expect(attempts.getByText('{"received":true}')).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Latest delivery' })).toHaveText(
    'Latest delivery: Test event, Succeeded',
  );

  await delivery.getByRole('button', { name: `Replay ${eventId}` }).click();
  await expect(page.getByText('Replay queued')).toBeVisible();
  const [, second] = await receiver.waitFor(2);
  if (!second) throw new Error('a second delivery expected');
  expect(second.headers['webhook-id']).toBe(eventId);
  new Webhook(secret).verify(second.body, second.headers);
  await expect(attempts.getByRole('listitem')).toHaveCount(2);
  await expect(attempts.getByRole('listitem').nth(1)).toContainText('Replay');
  await expect(attempts.getByRole('listitem').nth(1)).toContainText('200');
  await expect(delivery.getByText('Succeeded')).toBeVisible();
  expect(receiver.received).toHaveLength(2);
});

test('at phone width the endpoints are cards and the endpoint page fits, nothing past the edge', async ({
  page,
  user,
}) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await signUpVerified(page.request, user);
  const { account } = await createCompany(page.request, `Hooks ${user.lastName}`);
  const csrf = (await (await page.request.post('/api/auth/csrf')).json()) as { csrfToken: string };
  const longUrl = `${receiver.url}/a-rather-long-path/that/goes/on/and/on?with=a-query-string-too`;
  const made = await page.request.post('/api/webhook-endpoints', {
    headers: { 'X-CSRFToken': csrf.csrfToken },
    data: {
      account: account.id,
      url: longUrl,
      description: 'The lead-routing service of the call center in the Lisbon office',
      eventTypes: ['verification.approved', 'verification.failed', 'form.live_changed'],
      enabled: true,
    },
  });
  expect(made.status(), await made.text()).toBe(201);

  await page.goto('/settings/webhooks');
  const cards = page.getByRole('list', { name: 'Webhook endpoints' });
  await expect(cards.getByRole('link', { name: longUrl })).toBeVisible();
  await expect(cards.getByText('Form went live or offline')).toBeVisible();
  await expect(page.getByRole('table', { name: 'Webhook endpoints' })).toHaveCount(0);
  await expectNoSidewaysScroll(page);

  await cards.getByRole('link', { name: longUrl }).click();
  await expect(page.getByRole('heading', { name: longUrl })).toBeVisible();
  await page.getByRole('button', { name: 'Send test event' }).click();
  await expect(page.getByRole('list', { name: 'Deliveries' }).getByText('Succeeded')).toBeVisible();
  await expectNoSidewaysScroll(page);
});
