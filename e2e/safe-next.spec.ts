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

/** Routes the running app (not a page load) to the login page with `next`, as a link inside the app would. */
async function routeToLogin(page: Page, next: string) {
  await page.goto('/auth/reset-password/');
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  await page.evaluate(
    `window.history.pushState(null, '', '/auth/login/?next=${next}'); window.dispatchEvent(new PopStateEvent('popstate'))`,
  );
  await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible();
}

test('the first-paint login page follows `next` only within the app', async ({ page, request, baseURL }) => {
  // A login per hostile `next` (argon2 each): ~35 s alone, over the 60 s default while Lighthouse shares the cores.
  test.slow();
  const user = await signUpOwner(request);
  const reached = await refuseEvil(page);
  const appOrigin = new URL(baseURL ?? '').origin;
  for (const next of HOSTILE_NEXT) {
    await page.context().clearCookies();
    await page.goto(`/auth/login/?next=${next}`);
    await logIn(page, user);
    expect(new URL(page.url()).origin, `next=${next}`).toBe(appOrigin);
    await expect(page.getByRole('heading', { name: 'evil' })).toHaveCount(0);
  }
  expect(reached).toEqual([]);

  // A good `next` still works.
  await page.context().clearCookies();
  await page.goto(`/auth/login/?next=${encodeURIComponent('/settings/my-account')}`);
  await logIn(page, user);
  await expect(page).toHaveURL(/\/settings\/my-account\/?$/);
});

test("the app's login route follows `next` only within the app", async ({ page, request, baseURL }) => {
  const user = await signUpOwner(request);
  const reached = await refuseEvil(page);
  const appOrigin = new URL(baseURL ?? '').origin;
  for (const next of HOSTILE_NEXT) {
    await page.context().clearCookies();
    await routeToLogin(page, next);
    await logIn(page, user);
    expect(new URL(page.url()).origin, `next=${next}`).toBe(appOrigin);
    await expect(page.getByRole('heading', { name: 'evil' })).toHaveCount(0);
  }
  expect(reached).toEqual([]);

  await page.context().clearCookies();
  await routeToLogin(page, '%2Fsettings%2Fmy-account');
  await logIn(page, user);
  await expect(page).toHaveURL(/\/settings\/my-account\/?$/);
});
