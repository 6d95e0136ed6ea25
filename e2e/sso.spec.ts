import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import pg from 'pg';
import { startOidcProvider, type TestOidcProvider } from '../apps/server/src/test-support/oidc-provider.ts';
import { axeViolations } from './axe.ts';
import { clientAddress, createCompany, expect, signUpVerified, test } from './fixtures.ts';
import { expectNoSidewaysScroll } from './layout';
import { postgresAppBaseURL } from './ports.ts';
import { e2eDatabaseUrl } from './postgres.ts';

/**
 * Issue #38 item 4: single sign-on through a real OpenID Connect provider (`oidc-provider`, started by the journey on
 * 127.0.0.1; the apps run with DOMAIN_PROOF_ALLOW_HTTP, which lets them reach it over http://). An owner connects it
 * for the company's verified domain in Settings › Single sign-on; a person of that domain then signs in from the login
 * page through the provider's own login page and lands in the app as a member of the company; a person the provider
 * vouches for with another domain's address is turned back with the reason. The journey runs against the fourth app
 * (PostgreSQL, e2e/postgres-app.ts): the domain is verified in its database, since an e-mail domain cannot be proven on
 * loopback (the domain proof's own journey is e2e/domains.spec.ts).
 */
test.use({ baseURL: postgresAppBaseURL });

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const CALLBACK = `${postgresAppBaseURL}/auth/sso/callback`;

/** The account's domain, verified (as a DNS proof would leave it), in the app's database. */
async function verifiedDomain(accountId: number, domain: string): Promise<void> {
  const client = new pg.Client({ connectionString: e2eDatabaseUrl() });
  await client.connect();
  try {
    await client.query(
      `insert into account_domains (account_id, domain, token, verified_at, verified_by)
       values ($1, $2, $3, now(), 'dns')`,
      [accountId, domain, `veriform-domain-verification=${randomBytes(16).toString('hex')}`],
    );
  } finally {
    await client.end();
  }
}

async function noAxeViolations(page: Page, screen: string): Promise<void> {
  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    expect.soft(await axeViolations(page), `${screen} at ${viewport.width} px`).toEqual([]);
    await expectNoSidewaysScroll(page);
  }
  await page.setViewportSize(DESKTOP);
}

/** From the login page, through the provider's login page, as `login`; answers the page where the app lands. */
async function signInThroughProvider(page: Page, typed: string, login: string): Promise<void> {
  await page.goto('/auth/login/');
  await page.getByRole('button', { name: 'Sign in with SSO' }).click();
  await page.getByRole('textbox', { name: 'Work email' }).fill(typed);
  await page.getByRole('button', { name: 'Continue with SSO' }).click();
  await expect(page.getByRole('heading', { name: 'Test identity provider' })).toBeVisible();
  await page.getByLabel('Email').fill(login);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

test('an owner connects the company’s identity provider; a person of the domain signs in through it', async ({
  page,
  browser,
  user,
}) => {
  const provider: TestOidcProvider = await startOidcProvider({ redirectUri: CALLBACK });
  try {
    await signUpVerified(page.request, user);
    const company = `Single Sign ${user.lastName}`;
    const { account } = await createCompany(page.request, company);
    const domain = `sso-${randomBytes(4).toString('hex')}.example`;
    await verifiedDomain(account.id, domain);

    // The owner connects the provider.
    await page.setViewportSize(DESKTOP);
    await page.goto('/settings/single-sign-on');
    const section = page.getByRole('region', { name: 'Single sign-on' });
    const form = section.getByRole('form', { name: 'Single sign-on settings' });
    await expect(form.getByRole('textbox', { name: 'Redirect URI' })).toHaveValue(CALLBACK);
    await expect(form.getByRole('combobox', { name: 'Domain' })).toHaveValue(domain);
    await noAxeViolations(page, 'single sign-on, not connected');
    await form.getByRole('textbox', { name: /^Issuer URL/ }).fill(provider.issuer);
    await form.getByRole('textbox', { name: /^Client ID/ }).fill(provider.clientId);
    await form.getByLabel(/^Client secret/).fill(provider.clientSecret);
    await form.getByRole('button', { name: 'Connect provider' }).click();
    await expect(section.getByText('Connected', { exact: true })).toBeVisible();
    await expect(form.getByText(/A secret is set/)).toBeVisible();
    await expect(form.getByLabel(/^Client secret/)).toHaveValue('');
    await noAxeViolations(page, 'single sign-on, connected');

    // A person of the domain signs in through it: a member of the company, at the app.
    const context = await browser.newContext({
      baseURL: postgresAppBaseURL,
      viewport: DESKTOP,
      extraHTTPHeaders: { 'X-Forwarded-For': clientAddress() },
    });
    try {
      const person = await context.newPage();
      const email = `grace@${domain}`;
      await signInThroughProvider(person, email, email);
      await expect(person).not.toHaveURL(/\/auth\//);
      await expect(person).toHaveURL(new RegExp(`^${postgresAppBaseURL}/`));
      const csrf = ((await (await person.request.post('/api/auth/csrf')).json()) as { csrfToken: string })
        .csrfToken;
      const answer = await person.request.post('/api/auth/refresh-me', { headers: { 'X-CSRFToken': csrf } });
      expect(answer.status(), await answer.text()).toBe(200);
      const me = (await answer.json()) as {
        user: { email: string };
        currentMembership: { role: string; account: { displayName: string } } | null;
      };
      expect(me.user.email).toBe(email);
      expect(me.currentMembership).toMatchObject({ role: 'member', account: { displayName: company } });
      await expect(person.getByText(email).first()).toBeVisible();

      // Someone the provider vouches for with another domain's address is turned back, with the reason.
      await context.clearCookies();
      const eve = `eve@${domain}`;
      provider.people.set(eve, {
        sub: `sub-eve-${domain}`,
        email: 'eve@elsewhere.example',
        emailVerified: true,
      });
      await signInThroughProvider(person, eve, eve);
      await expect(person).toHaveURL(/\/auth\/login\/?\?sso_error=wrong_domain/);
      await expect(person.getByRole('alert')).toContainText(
        'Your identity provider signed you in with an address of another domain than the one you typed.',
      );
      await noAxeViolations(person, 'login with an SSO error');

      // An address whose domain has no connection: the start says so.
      await person.goto('/auth/login/');
      await person.getByRole('button', { name: 'Sign in with SSO' }).click();
      await person.getByRole('textbox', { name: 'Work email' }).fill('someone@nowhere.example');
      await person.getByRole('button', { name: 'Continue with SSO' }).click();
      await expect(person.getByRole('alert')).toContainText(
        'No single sign-on is set up for nowhere.example.',
      );
    } finally {
      await context.close();
    }
  } finally {
    await provider.close();
  }
});
