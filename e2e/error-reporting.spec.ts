import type { APIRequestContext, Page } from '@playwright/test';
import { errorEventsOf, type ReceivedEnvelope } from '../apps/server/src/test-support/sentry.ts';
import { expect, test } from './fixtures.ts';
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
