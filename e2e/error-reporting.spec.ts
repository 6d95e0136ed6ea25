import type { APIRequestContext, Page } from '@playwright/test';
import { tokenLinkPages } from '@veriform/contracts/page-paths';
import { errorEventsOf, type ReceivedEnvelope } from '../apps/server/src/test-support/sentry.ts';
import { expect, linkIn, test } from './fixtures.ts';
import { reportingBaseURL, sentryStandInURL } from './ports.ts';

/**
 * SPEC §9 error reporting, in the browser: a deployment with SENTRY_DSN (the second app of playwright.config.ts) makes
 * its pages load the Sentry SDK after their content and send their errors to the DSN (here a local stand-in of
 * Sentry's ingestion endpoint), through the production CSP, without the query strings the URLs carried.
 */

async function received(request: APIRequestContext): Promise<ReceivedEnvelope[]> {
  return (await request.get(`${sentryStandInURL}/received`)).json();
}

/** Throws from a timer, as a bug in an event handler would: nothing of ours catches it. */
async function throwUncaught(page: Page, message: string): Promise<void> {
  await page.evaluate((text) => {
    setTimeout(() => {
      throw new Error(text);
    }, 0);
  }, message);
}

async function eventFor(request: APIRequestContext, message: string) {
  let found: ReturnType<typeof errorEventsOf>[number] | undefined;
  await expect
    .poll(
      async () => {
        found = errorEventsOf(await received(request)).find((event) =>
          event.exception?.values?.some((value) => value.value === message),
        );
        return found !== undefined;
      },
      { timeout: 15_000 },
    )
    .toBe(true);
  return found;
}

test('an uncaught error on an app page reaches the error reporter, without the query string', async ({
  page,
  request,
}) => {
  const message = `e2e app fault ${Date.now()}`;
  const sdk = page.waitForRequest((req) => /sentry-browser/.test(req.url()));
  await page.goto(`${reportingBaseURL}/auth/login/?next=%2Factivity-log%2F%3Fq%3D4155550123`);
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
  await sdk;
  await throwUncaught(page, message);

  const event = await eventFor(request, message);
  expect(event?.environment).toBe('test');
  expect(event?.request?.url).toBe(`${reportingBaseURL}/auth/login/`);
  const raw = (await received(request)).map((envelope) => envelope.raw).join('\n');
  expect(raw).not.toContain('4155550123');
});

test('the public form page reports its errors too, and its ref stays private', async ({ page, request }) => {
  const message = `e2e public page fault ${Date.now()}`;
  await page.goto(`${reportingBaseURL}/f/no-such-form?ref=CRM-private-ref`);
  await expect(page.getByRole('heading', { name: /not available/i })).toBeVisible();
  // Thrown before the SDK may have arrived: kept, then sent once it has.
  await throwUncaught(page, message);

  const event = await eventFor(request, message);
  expect(event?.request?.url).toBe(`${reportingBaseURL}/f/no-such-form`);
  const raw = (await received(request)).map((envelope) => envelope.raw).join('\n');
  expect(raw).not.toContain('CRM-private-ref');
});

test("a token link's page reports its errors without the token", async ({ page, request, user }) => {
  // A valid link, so the page stays on it: made by signing up on the reporting app itself.
  const api = (path: string) => `${reportingBaseURL}${path}`;
  const { csrfToken } = (await (await request.post(api('/api/auth/csrf'))).json()) as { csrfToken: string };
  const signup = await request.post(api('/api/auth/signup'), {
    headers: { 'X-CSRFToken': csrfToken },
    data: { ...user, passwordConfirm: user.password },
  });
  expect(signup.status(), await signup.text()).toBe(200);
  let link = '';
  await expect
    .poll(async () => {
      const outbox = await request.get(api(`/api/dev/outbox?to=${encodeURIComponent(user.email)}`));
      const [mail] = ((await outbox.json()) as { results: { text: string }[] }).results;
      link = mail ? linkIn(mail.text, tokenLinkPages['verify-email']) : '';
      return link;
    })
    .not.toBe('');
  const [, uidb64, token] = link.match(/confirm\/([^/]+)\/([^/]+)\//) ?? [];
  if (!uidb64 || !token) throw new Error(`not a token link: ${link}`);

  const message = `e2e token page fault ${Date.now()}`;
  const sdk = page.waitForRequest((req) => /sentry-browser/.test(req.url()));
  await page.goto(link);
  await expect(page.getByRole('button', { name: 'Confirm e-mail address' })).toBeVisible();
  await sdk;
  await throwUncaught(page, message);

  const event = await eventFor(request, message);
  expect(event?.request?.url).toBe(
    `${reportingBaseURL}${tokenLinkPages['verify-email']}${uidb64}/[redacted]/`,
  );
  const raw = (await received(request)).map((envelope) => envelope.raw).join('\n');
  expect(raw).not.toContain(token);
});

test('without SENTRY_DSN no page downloads the SDK', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (req) => {
    if (req.resourceType() === 'script') scripts.push(req.url());
  });
  await page.goto('/auth/login/');
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
  await page.goto('/f/no-such-form');
  await expect(page.getByRole('heading', { name: /not available/i })).toBeVisible();
  // The SDK would load after the page's load event: wait until the network has been quiet for a while.
  await page.waitForLoadState('networkidle');
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter((url) => /sentry/i.test(url))).toEqual([]);
});
