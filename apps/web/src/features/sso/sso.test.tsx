import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type SsoSettingsResponse, ssoErrorTexts, ssoTexts } from '@veriform/contracts';
import { describe, expect, it, vi } from 'vitest';
import { SsoSignIn } from '../../components/sso/SsoSignIn';
import { createFakeServer, makeInitialData, makeMembership, makeUser } from '../../test/fake-server';
import { renderApp } from '../../test/render';
import { SSO_INTRO } from './components/SsoSettings';

const ada = makeUser();
const owner = makeMembership();
const member = makeMembership({ role: 'member' });
const signedIn = (membership = owner) =>
  makeInitialData({ user: ada, memberships: [membership], currentMembership: membership });

const GET = 'GET /api/accounts/21/sso';
const PUT = 'PUT /api/accounts/21/sso';
const REDIRECT = 'https://veriform.example/auth/sso/callback';

const settings = (over: Partial<SsoSettingsResponse> = {}): SsoSettingsResponse => ({
  connection: null,
  verifiedDomains: ['acme.example'],
  redirectUri: REDIRECT,
  ...over,
});

const connection = {
  domain: 'acme.example',
  issuer: 'https://login.acme.example',
  clientId: 'veriform',
  clientSecretSet: true,
  defaultRole: 'member' as const,
  required: false,
  redirectUri: REDIRECT,
  updatedAt: '2026-11-29T10:00:00Z',
};

const page = () => screen.findByRole('region', { name: 'Single sign-on' });

describe('Settings › Single sign-on', { timeout: 20_000 }, () => {
  it('without a verified domain: says so and links to the domains', async () => {
    const server = createFakeServer({ [GET]: [200, settings({ verifiedDomains: [] })] });
    renderApp('/settings/single-sign-on', { initialData: signedIn(), server });
    const section = await page();
    expect(within(section).getByText(SSO_INTRO)).toBeInTheDocument();
    expect(await within(section).findByText('No verified domain yet')).toBeInTheDocument();
    expect(within(section).getByRole('link', { name: 'Company Info › Domains' })).toHaveAttribute(
      'href',
      '/settings/company-info',
    );
    expect(screen.getByRole('tab', { name: 'Single sign-on' })).toBeInTheDocument();
  });

  it('owners connect a provider: fields checked first, the server’s refusal beside its field, then saved', async () => {
    const user = userEvent.setup();
    let answer: [number, unknown] = [
      400,
      { issuer: [ssoTexts.discoveryFailed], MainCode_: 'validation_error' },
    ];
    const server = createFakeServer({ [GET]: [200, settings()], [PUT]: () => answer });
    renderApp('/settings/single-sign-on', { initialData: signedIn(), server });
    const section = await page();
    const form = await within(section).findByRole('form', { name: 'Single sign-on settings' });
    expect(within(form).getByRole('textbox', { name: 'Redirect URI' })).toHaveValue(REDIRECT);

    await user.click(within(form).getByRole('button', { name: 'Connect provider' }));
    expect(
      await within(form).findByText('Enter the issuer URL, such as https://login.example.com.'),
    ).toBeInTheDocument();
    expect(server.calls(PUT)).toHaveLength(0);

    await user.type(within(form).getByRole('textbox', { name: /^Issuer URL/ }), 'https://login.acme.example');
    await user.type(within(form).getByRole('textbox', { name: /^Client ID/ }), 'veriform');
    await user.type(within(form).getByLabelText(/^Client secret/), 's3cret');
    await user.click(within(form).getByRole('switch', { name: /Require single sign-on/ }));
    await user.click(within(form).getByRole('button', { name: 'Connect provider' }));
    expect(await within(form).findByText(ssoTexts.discoveryFailed)).toBeInTheDocument();
    expect(server.calls(PUT).at(-1)?.body).toEqual({
      domain: 'acme.example',
      issuer: 'https://login.acme.example',
      clientId: 'veriform',
      clientSecret: 's3cret',
      defaultRole: 'member',
      required: true,
    });

    answer = [200, settings({ connection: { ...connection, required: true } })];
    await user.click(within(form).getByRole('button', { name: 'Connect provider' }));
    expect(await within(section).findByText('Connected')).toBeInTheDocument();
    expect(await screen.findByText('Single sign-on saved')).toBeInTheDocument();
    const saved = within(section).getByRole('form', { name: 'Single sign-on settings' });
    // The secret is write-only: the field is empty again, and says one is set.
    expect(within(saved).getByLabelText(/^Client secret/)).toHaveValue('');
    expect(within(saved).getByText(/A secret is set/)).toBeInTheDocument();
  });

  it('an edit leaves the stored secret out when the field stays empty', async () => {
    const user = userEvent.setup();
    const server = createFakeServer({
      [GET]: [200, settings({ connection })],
      [PUT]: ({ body }) => [200, settings({ connection: { ...connection, ...(body as object) } })],
    });
    renderApp('/settings/single-sign-on', { initialData: signedIn(), server });
    const form = await within(await page()).findByRole('form', { name: 'Single sign-on settings' });
    const clientId = within(form).getByRole('textbox', { name: /^Client ID/ });
    await user.clear(clientId);
    await user.type(clientId, 'veriform-2');
    await user.click(within(form).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(server.calls(PUT)).toHaveLength(1));
    expect(server.calls(PUT)[0]?.body).not.toHaveProperty('clientSecret');
  });

  it('a failed read says so with a way to try again', async () => {
    const user = userEvent.setup();
    let answer: [number, unknown] = [500, { detail: 'Server error.', MainCode_: 'server_error' }];
    const server = createFakeServer({ [GET]: () => answer });
    renderApp('/settings/single-sign-on', { initialData: signedIn(), server });
    const section = await page();
    expect(await within(section).findByRole('alert')).toHaveTextContent('Single sign-on could not be loaded');
    answer = [200, settings()];
    await user.click(within(section).getByRole('button', { name: 'Try again' }));
    expect(await within(section).findByRole('form', { name: 'Single sign-on settings' })).toBeInTheDocument();
  });

  it('members get no tab, and the permission screen at the address', async () => {
    const server = createFakeServer({ [GET]: [403, { detail: 'no', MainCode_: 'permission_denied' }] });
    renderApp('/settings/single-sign-on', { initialData: signedIn(member), server });
    expect(await screen.findByRole('heading', { name: /permission|access/i })).toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: 'Single sign-on' })).toBeNull();
    expect(server.calls(GET)).toHaveLength(0);
  });
});

describe('Login: Sign in with SSO', () => {
  it('asks the work address, checks it, then goes to the start of the sign-in', async () => {
    const user = userEvent.setup();
    const navigate = vi.fn();
    render(<SsoSignIn search="" navigate={navigate} />);
    await user.click(screen.getByRole('button', { name: 'Sign in with SSO' }));
    const input = screen.getByRole('textbox', { name: 'Work email' });
    expect(input).toHaveFocus();
    await user.type(input, 'grace');
    await user.click(screen.getByRole('button', { name: 'Continue with SSO' }));
    expect(screen.getByText(ssoTexts.invalidEmail)).toBeInTheDocument();
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(navigate).not.toHaveBeenCalled();
    await user.type(input, '@acme.example{Enter}');
    expect(navigate).toHaveBeenCalledWith('/auth/sso/start?email=grace%40acme.example');
  });

  it('shows why a sign-in through the provider failed (`?sso_error=`)', () => {
    render(<SsoSignIn search="?sso_error=wrong_domain" navigate={vi.fn()} />);
    expect(screen.getByRole('alert')).toHaveTextContent(ssoErrorTexts.wrong_domain);
  });

  it('an unknown code gets the general text', () => {
    render(<SsoSignIn search="?sso_error=whatever" navigate={vi.fn()} />);
    expect(screen.getByRole('alert')).toHaveTextContent(ssoTexts.failed);
  });

  it('is on the login page', async () => {
    renderApp('/auth/login/', { server: createFakeServer() });
    expect(await screen.findByRole('button', { name: 'Sign in with SSO' })).toBeInTheDocument();
  });
});
