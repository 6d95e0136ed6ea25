import type { Page } from '@playwright/test';
import {
  addVirtualAuthenticator,
  authenticatorApp,
  clientAddress,
  createCompany,
  expect,
  joinAccount,
  newUser,
  signUpOwner,
  signUpVerified,
  test,
} from './fixtures.ts';
import { expectNoSidewaysScroll } from './layout';
import { baseURL } from './ports.ts';

/**
 * Issue #38's browser journeys: a passkey made with Chromium's virtual authenticator signs in without a password; an
 * authenticator app set up from the key the page shows (codes computed here with otpauth), its recovery codes saved and
 * one used to sign in; the step-up dialog before an API key; an owner requires a second factor and a member is led
 * through setting one up before anything else.
 */

async function logOut(page: Page): Promise<void> {
  await page.goto('/settings/logout');
  await expect(page).toHaveURL(/\/auth\/login/);
}

async function logInWithPassword(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/auth/login/');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

/** Sets up the authenticator app in My Account (or the setup screen): answers the app and the recovery codes. */
async function setUpAuthenticatorApp(page: Page) {
  await page.getByRole('button', { name: 'Set up authenticator app' }).click();
  const setup = page.getByRole('dialog', { name: 'Set up an authenticator app' });
  await expect(setup.getByRole('img', { name: 'QR code of the key' })).toBeVisible();
  const app = authenticatorApp(await setup.getByTestId('totp-secret').innerText());
  await setup.getByRole('textbox', { name: 'Code from the app' }).fill(await app.next());
  await setup.getByRole('button', { name: 'Turn on' }).click();

  const saved = page.getByRole('dialog', { name: 'Save your recovery codes' });
  const items = saved.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(items).toHaveCount(10);
  const codes = await items.allInnerTexts();
  await expect(saved.getByRole('button', { name: 'Done' })).toBeDisabled();
  await saved.getByRole('checkbox', { name: 'I saved my recovery codes' }).check();
  await saved.getByRole('button', { name: 'Done' }).click();
  await expect(saved).toBeHidden();
  return { app, codes };
}

test('a passkey made in My Account signs in without a password', async ({ page, user }) => {
  await signUpOwner(page.request, user);
  await addVirtualAuthenticator(page);
  await page.goto('/settings/my-account');
  const passkeys = page.getByRole('region', { name: 'Passkeys' });
  await expect(passkeys.getByText('No passkeys yet.')).toBeVisible();
  await passkeys.getByRole('button', { name: 'Add a passkey' }).click();
  const add = page.getByRole('dialog', { name: 'Add a passkey' });
  await add.getByRole('textbox', { name: 'Name' }).fill('Work laptop');
  await add.getByRole('button', { name: 'Add passkey' }).click();
  await expect(page.getByText('Work laptop can sign you in now.')).toBeVisible();
  const row = passkeys.getByRole('row').filter({ hasText: 'Work laptop' });
  await expect(row.getByRole('cell', { name: 'Never' })).toBeVisible();

  // Signed out, the login page's first paint signs in with the passkey alone.
  await logOut(page);
  await page.goto('/auth/login/');
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByRole('button', { name: /^Account menu/ })).toBeVisible();

  await page.goto('/settings/my-account');
  await expect(row.getByRole('cell', { name: 'Never' })).toHaveCount(0);
  const sessions = page.getByRole('region', { name: 'Sessions' });
  await expect(sessions.getByRole('row').filter({ hasText: 'This device' })).toContainText('Passkey');
  // At phone width the lists are cards: nothing reaches past the window's edge.
  await page.setViewportSize({ width: 375, height: 800 });
  await expect(page.getByRole('list', { name: 'Sessions' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Passkeys' }).getByText('Work laptop')).toBeVisible();
  await expectNoSidewaysScroll(page);
  await page.setViewportSize({ width: 1280, height: 800 });

  // The password alone no longer signs in: the passkey is the second step.
  await logOut(page);
  await logInWithPassword(page, user.email, user.password);
  const step = page.getByRole('form', { name: 'Second factor' });
  await expect(step.getByRole('textbox')).toHaveCount(0);
  await step.getByRole('button', { name: 'Use a passkey' }).click();
  await expect(page).not.toHaveURL(/\/auth\/login/);
  await expect(page.getByRole('button', { name: /^Account menu/ })).toBeVisible();
});

test('an authenticator app: set up from its key, the step-up before an API key, a recovery code to sign in', async ({
  page,
  browser,
  user,
}) => {
  test.setTimeout(120_000);
  await signUpVerified(page.request, user);
  await createCompany(page.request, `Factors ${user.lastName}`);
  // A second browser signed in before the app is set up: its session has proved no second factor since.
  const other = await browser.newContext({
    baseURL,
    extraHTTPHeaders: { 'X-Forwarded-For': clientAddress() },
  });
  const otherPage = await other.newPage();
  await logInWithPassword(otherPage, user.email, user.password);
  await expect(otherPage).not.toHaveURL(/\/auth\/login/);

  await page.goto('/settings/my-account');
  const { app, codes } = await setUpAuthenticatorApp(page);
  const card = page.getByRole('region', { name: 'Authenticator app' });
  await expect(card.getByText('10 recovery codes left.')).toBeVisible();

  // The other session asks for the second factor before it makes a key; Cancel changes nothing.
  await otherPage.goto('/settings/api-keys');
  const createKey = async () => {
    await otherPage.getByRole('button', { name: 'Create API key' }).click();
    const form = otherPage.getByRole('dialog', { name: 'Create API key' });
    await form.getByLabel('Name').fill('CRM sync');
    await form.getByRole('checkbox', { name: 'forms:read' }).check();
    await form.getByRole('button', { name: 'Create key' }).click();
    return form;
  };
  let form = await createKey();
  let stepUp = otherPage.getByRole('dialog', { name: 'Confirm it is you' });
  await stepUp.getByRole('button', { name: 'Cancel' }).click();
  await expect(form.getByText('Nothing was changed: confirming it is you was canceled.')).toBeVisible();
  await form.getByRole('button', { name: 'Cancel' }).click();
  await expect(otherPage.getByText('No API keys yet')).toBeVisible();

  form = await createKey();
  stepUp = otherPage.getByRole('dialog', { name: 'Confirm it is you' });
  await stepUp.getByRole('textbox', { name: 'Authenticator or recovery code' }).fill(await app.next());
  await stepUp.getByRole('button', { name: 'Confirm' }).click();
  await expect(otherPage.getByRole('dialog', { name: 'Your new API key' })).toBeVisible();
  await other.close();

  // Signed out, the password asks for the second factor; a recovery code signs in once.
  await logOut(page);
  await logInWithPassword(page, user.email, user.password);
  const step = page.getByRole('form', { name: 'Second factor' });
  await expect(step.getByRole('textbox', { name: 'Authentication code' })).toBeFocused();
  await step.getByRole('button', { name: 'Use a recovery code' }).click();
  await step.getByRole('textbox', { name: 'Recovery code' }).fill(codes[0] ?? '');
  await step.getByRole('button', { name: 'Verify' }).click();
  await expect(page).not.toHaveURL(/\/auth\/login/);
  await page.goto('/settings/my-account');
  await expect(card.getByText('9 recovery codes left.')).toBeVisible();

  // The same code again is refused, in place.
  await logOut(page);
  await logInWithPassword(page, user.email, user.password);
  await step.getByRole('button', { name: 'Use a recovery code' }).click();
  await step.getByRole('textbox', { name: 'Recovery code' }).fill(codes[0] ?? '');
  await step.getByRole('button', { name: 'Verify' }).click();
  await expect(
    step.getByText('That code is not right, or it was already used. Try the next one.'),
  ).toBeVisible();
});

test('an owner requires a second factor; a member is led through setting one up first', async ({
  page,
  browser,
  user,
}) => {
  test.setTimeout(120_000);
  await signUpOwner(page.request, user);
  const accountId = (
    (await (await page.request.get('/api/memberships')).json()) as { results: { account: { id: number } }[] }
  ).results[0]?.account.id;
  if (!accountId) throw new Error('no account');
  const mate = newUser();
  const mateContext = await browser.newContext({
    baseURL,
    extraHTTPHeaders: { 'X-Forwarded-For': clientAddress() },
  });
  const matePage = await mateContext.newPage();
  await joinAccount(page.request, matePage.request, mate, accountId);

  // The owner sets up a factor first (else the requirement would lead them to set one up too).
  await page.goto('/settings/my-account');
  await setUpAuthenticatorApp(page);
  await page.goto('/settings/company-info');
  const requirement = page.getByRole('region', { name: 'Two-factor authentication' });
  await requirement.getByRole('switch', { name: 'Require two-factor authentication' }).click();
  await page
    .getByRole('dialog', { name: 'Require two-factor authentication?' })
    .getByRole('button', { name: 'Require it' })
    .click();
  await expect(page.getByText('Two-factor authentication required')).toBeVisible();
  await page.goto('/settings/manage-team');
  const mateRow = page
    .getByRole('table', { name: 'Team members' })
    .getByRole('row')
    .filter({ hasText: mate.email });
  await expect(mateRow.getByText('None', { exact: true })).toBeVisible();

  // The member's next step in the company leads to the setup screen, with nothing else but signing out.
  await matePage.goto('/forms/');
  const screen = matePage.getByRole('dialog', { name: 'Set up a second factor' });
  await expect(screen.getByText(/This account requires a second factor/)).toBeVisible();
  await expect(screen.getByRole('button', { name: 'Sign out' })).toBeEnabled();
  await expect(screen.getByRole('button', { name: 'Continue' })).toBeDisabled();
  await setUpAuthenticatorApp(matePage);
  await screen.getByRole('button', { name: 'Continue' }).click();
  await expect(screen).toBeHidden();
  await expect(matePage.getByRole('heading', { name: 'Forms', level: 1 })).toBeVisible();
  await mateContext.close();

  await page.reload();
  await expect(mateRow.getByText('Authenticator app')).toBeVisible();
});
