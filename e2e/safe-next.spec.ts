import type { Page } from '@playwright/test';
import { expect, signUpOwner, test } from './fixtures';

/**
 * Issue #33 item 3: after logging in, the `next` parameter is followed only to a page of the app. The browser judges
 * the value (tabs and newlines dropped, `\` read as `/`), so the journey tries hostile values in a real one, on both
 * login pages: the first paint's (a page load of /auth/login/) and the app's route (reached inside the app).
 */

// Raw query values, as an attacker would write them in a link.
const HOSTILE_NEXT = [
  '%2F%09%2Fevil.example', // the issue's: `/<tab>/evil.example`
  '%2F%0A%2Fevil.example',
  '%2F%0D%0A%2Fevil.example',
  '%2F%5Cevil.example', // `/\evil.example`
  '%5C%5Cevil.example', // `\\evil.example`
  '%2F%2Fevil.example',
  'https%3A%2F%2Fevil.example%2F',
  'http%3Aevil.example',
  'javascript%3Aalert(document.domain)',
  '%252F%252Fevil.example', // double-encoded
];

async function refuseEvil(page: Page): Promise<string[]> {
  const reached: string[] = [];
  await page.route(
    (url) => url.hostname.endsWith('evil.example'),
    async (route) => {
      reached.push(route.request().url());
      await route.fulfill({ status: 200, contentType: 'text/html', body: '<h1>evil</h1>' });
    },
  );
  return reached;
}

async function logIn(page: Page, user: { email: string; password: string }) {
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/auth/login'));
  // Settled on a page: the app's (its landing page, or its "Page Not Found" for a same-origin path that is no page).
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
}

/** Routes the running app (not a page load) to a path, as a link inside the app would. */
async function routeInApp(page: Page, path: string) {
  await page.evaluate(
    `window.history.pushState(null, '', '${path}'); window.dispatchEvent(new PopStateEvent('popstate'))`,
  );
}

/**
 * Answers the app's own pages (a document of its origin other than the login page) with a stub: where the login sends
 * the browser is what is tested, and the stub saves loading the whole app after each of the logins.
 */
async function stubAppPages(page: Page, appOrigin: string) {
  await page.route(
    (url) => url.origin === appOrigin && !url.pathname.startsWith('/auth/login'),
    async (route) => {
      if (route.request().resourceType() !== 'document') return route.fallback();
      await route.fulfill({ status: 200, contentType: 'text/html', body: '<title>app</title><h1>app</h1>' });
    },
  );
}

test('the first-paint login page follows `next` only within the app', async ({ page, request, baseURL }) => {
  const user = await signUpOwner(request);
  const reached = await refuseEvil(page);
  const appOrigin = new URL(baseURL ?? '').origin;
  await stubAppPages(page, appOrigin);
  for (const next of HOSTILE_NEXT) {
    await page.context().clearCookies();
    await page.goto(`/auth/login/?next=${next}`);
    await logIn(page, user);
    expect(new URL(page.url()).origin, `next=${next}`).toBe(appOrigin);
    await expect(page.getByRole('heading', { name: 'evil' })).toHaveCount(0);
  }
  expect(reached).toEqual([]);

  // A good `next` still works, to the app's page itself.
  await page.unrouteAll();
  await page.context().clearCookies();
  await page.goto(`/auth/login/?next=${encodeURIComponent('/settings/my-account')}`);
  await logIn(page, user);
  await expect(page).toHaveURL(/\/settings\/my-account\/?$/);
});

test("the app's login route follows `next` only within the app", async ({ page, request, baseURL }) => {
  const user = await signUpOwner(request);
  const reached = await refuseEvil(page);
  const appOrigin = new URL(baseURL ?? '').origin;
  // One page load; then each round logs out and reaches the login route inside the running app.
  await page.goto('/auth/reset-password/');
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  let loggedIn = false;
  for (const next of [...HOSTILE_NEXT, '%2Fsettings%2Fmy-account']) {
    if (loggedIn) {
      await routeInApp(page, '/settings/logout');
      await expect(page).toHaveURL(/\/auth\/login\/?$/);
    }
    await routeInApp(page, `/auth/login/?next=${next}`);
    await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible();
    await logIn(page, user);
    loggedIn = true;
    expect(new URL(page.url()).origin, `next=${next}`).toBe(appOrigin);
    await expect(page.getByRole('heading', { name: 'evil' })).toHaveCount(0);
  }
  expect(reached).toEqual([]);
  // The good `next` (the last round) was followed.
  await expect(page).toHaveURL(/\/settings\/my-account\/?$/);
});
