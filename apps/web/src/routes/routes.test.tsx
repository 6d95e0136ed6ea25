import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { tokenLinkPath } from '@veriform/contracts';
import { describe, expect, it } from 'vitest';
import {
  authResponse,
  createFakeServer,
  makeInitialData,
  makeMembership,
  makeUser,
} from '../test/fake-server';
import { renderApp } from '../test/render';

const verified = makeUser();
const signedIn = (over: Parameters<typeof makeUser>[0] = {}, memberships = [makeMembership()]) =>
  makeInitialData({ user: makeUser(over), memberships, currentMembership: memberships[0] ?? null });

describe('not found', () => {
  it('shows the 404 page for any unmatched path', async () => {
    const { router } = renderApp('/no/such/page');
    const heading = await screen.findByRole('heading', { name: 'Page Not Found' });
    // Outside every layout, the page is its own main landmark.
    expect(screen.getByRole('main')).toContainElement(heading);
    expect(screen.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/dashboard');
    expect(router.state.location.pathname).toBe('/no/such/page');
  });

  it('also inside known prefixes', async () => {
    renderApp('/settings/nope', { initialData: signedIn() });
    expect(await screen.findByRole('heading', { name: 'Page Not Found' })).toBeInTheDocument();
    expect(screen.getAllByRole('main')).toHaveLength(1);
  });
});

describe('gate (SPEC §4)', () => {
  it('sends anonymous visitors to login with next', async () => {
    const { router } = renderApp('/forms/');
    expect(await screen.findByRole('heading', { name: 'Log in' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth/login');
    expect(router.state.location.search).toEqual({ next: '/forms/' });
  });

  it('sends never-verified users to the sign-up verification page', async () => {
    const server = createFakeServer({
      'POST /api/auth/refresh-me': [
        200,
        authResponse(makeUser({ emailIsVerified: false, emailVerifiedAsOf: null })),
      ],
    });
    const { router } = renderApp('/', {
      initialData: signedIn({ emailIsVerified: false, emailVerifiedAsOf: null }, []),
      server,
    });
    expect(await screen.findByRole('heading', { name: 'Check your inbox' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth/signup/verify-email');
  });

  it('sends users whose address needs re-verifying to /auth/verify-email', async () => {
    const { router } = renderApp('/', { initialData: signedIn({ emailIsVerified: false }, []) });
    expect(await screen.findByRole('heading', { name: 'Verify your e-mail address' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth/verify-email');
  });

  it('takes verified users from / to My Account', async () => {
    const { router } = renderApp('/', { initialData: signedIn() });
    expect(await screen.findByRole('textbox', { name: 'Name' })).toHaveValue('Ada Lovelace');
    expect(router.state.location.pathname).toBe('/settings/my-account');
    expect(screen.getByRole('textbox', { name: 'Email' })).toHaveValue('ada@example.com');
  });

  it('redirects bare /settings to /settings/my-account', async () => {
    const { router } = renderApp('/settings', { initialData: signedIn() });
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings/my-account'));
    expect(await screen.findByRole('tab', { name: 'My Account' })).toHaveAttribute('aria-selected', 'true');
  });
});

describe('app shell', () => {
  it('shows the links the membership allows, and a footer', async () => {
    renderApp('/forms/', {
      initialData: signedIn({}, [
        makeMembership({ role: 'member', canSearchData: true, canViewReports: false }),
      ]),
    });
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Activity Log', 'Forms']);
    expect(screen.getByText(`© ${new Date().getFullYear()} Veriform`)).toBeInTheDocument();
  });

  it('shows Forms only without a membership (My Account stays open)', async () => {
    const { router } = renderApp('/settings/my-account', { initialData: signedIn({}, []) });
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Forms']);
    expect(router.state.location.pathname).toBe('/settings/my-account');
  });

  it('/ without a membership sends the user to create a company', async () => {
    const { router } = renderApp('/', { initialData: signedIn({}, []) });
    expect(await screen.findByRole('heading', { name: 'Create your company' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth/signup/complete');
  });

  it.each([
    '/dashboard/',
    '/activity-log/',
    '/activity-log/5',
    '/forms/',
    '/forms/3',
    '/settings/company-info',
    '/settings/manage-team',
  ])('%s without a membership says No membership found, with a way to create a company', async (path) => {
    const user = userEvent.setup();
    const { router } = renderApp(path, { initialData: signedIn({}, []) });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('No membership found');
    expect(router.state.location.pathname).toBe(path);
    await user.click(within(alert).getByRole('link', { name: 'Create a company' }));
    expect(await screen.findByRole('heading', { name: 'Create your company' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth/signup/complete');
  });

  it('the account menu has the settings and log out items', async () => {
    const user = userEvent.setup();
    renderApp('/forms/', { initialData: signedIn() });
    await user.click(await screen.findByRole('button', { name: /^Account menu/ }));
    expect(await screen.findByRole('menuitem', { name: 'Account settings' })).toHaveAttribute(
      'href',
      '/settings/company-info',
    );
    expect(screen.getByRole('menuitem', { name: 'Global Settings' })).toHaveAttribute(
      'href',
      '/settings/my-account',
    );
    expect(screen.getByRole('menuitem', { name: 'Log out' })).toHaveAttribute('href', '/settings/logout');
    expect(screen.getByRole('menuitem', { name: 'Create company' })).toHaveAttribute(
      'href',
      '/auth/signup/complete',
    );
    expect(screen.getByRole('menuitem', { name: 'Current company: Acme Corp' })).toHaveAttribute(
      'aria-expanded',
      'false',
    );
  });
});

describe('login', () => {
  it('logs in and goes to next', async () => {
    const user = userEvent.setup();
    const server = createFakeServer({
      'POST /api/auth/login': [200, authResponse(verified, [makeMembership()])],
    });
    const { router } = renderApp('/auth/login/?next=%2Fforms%2F', { server });
    await user.type(await screen.findByLabelText(/^Email/), ' ada@example.com ');
    await user.type(screen.getByLabelText(/^Password/, { selector: 'input' }), 'analytical1!');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByRole('heading', { name: 'Forms' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/forms/');
    expect(server.calls('POST /api/auth/login')[0]?.body).toEqual({
      email: 'ada@example.com',
      password: 'analytical1!',
    });
  });

  it('shows the server’s non-field error', async () => {
    const user = userEvent.setup();
    const server = createFakeServer({
      'POST /api/auth/login': [
        400,
        {
          nonFieldErrors: ['Unable to log in with the provided e-mail and password.'],
          MainCode_: 'invalid_credentials',
        },
      ],
    });
    renderApp('/auth/login', { server });
    await user.type(await screen.findByLabelText(/^Email/), 'ada@example.com');
    await user.type(screen.getByLabelText(/^Password/, { selector: 'input' }), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Unable to log in with the provided e-mail and password.',
    );
  });

  it('links to sign up and to the forgotten-password page', async () => {
    renderApp('/auth/login/');
    expect(await screen.findByRole('link', { name: 'Forgot password?' })).toHaveAttribute(
      'href',
      '/auth/reset-password/',
    );
    expect(screen.getByRole('link', { name: 'Create an account' })).toHaveAttribute('href', '/auth/signup');
    // Exactly one control answers to "password" (the visibility toggle is labelled without the word).
    expect(screen.getAllByLabelText(/password/i)).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Show characters' })).toBeInTheDocument();
  });

  it('sends a signed-in user on to the app', async () => {
    const { router } = renderApp('/auth/login/', { initialData: signedIn() });
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings/my-account'));
  });
});

describe('sign-up verification page', () => {
  it('resends the e-mail and moves on once the session says verified', async () => {
    const user = userEvent.setup();
    const unverified = makeUser({ emailIsVerified: false, emailVerifiedAsOf: null });
    let verifiedYet = false;
    const server = createFakeServer({
      'POST /api/auth/signup/resend-verification-email': [200, { detail: 'Sent.' }],
      'POST /api/auth/refresh-me': () => [200, authResponse(verifiedYet ? verified : unverified)],
    });
    const { router } = renderApp('/auth/signup/verify-email/', {
      initialData: signedIn(unverified, []),
      server,
    });
    expect(await screen.findByText('ada@example.com')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Resend verification e-mail' }));
    expect(await screen.findByText('Sent Verification Email')).toBeInTheDocument();
    expect(screen.getByText('Sent to ada@example.com.')).toBeInTheDocument();
    expect(server.calls('POST /api/auth/signup/resend-verification-email')[0]?.body).toEqual({
      email: 'ada@example.com',
    });

    verifiedYet = true;
    document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/signup/verify-email/success'));
    expect(
      await screen.findByRole('heading', { name: 'Your e-mail address is verified' }),
    ).toBeInTheDocument();
  });

  it('is only for signed-in users with an unverified address', async () => {
    const { router } = renderApp('/auth/signup/verify-email/', { initialData: signedIn() });
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings/my-account'));
  });
});

describe('verification link /auth/verify-email/confirm/$uidb64/$secretToken/', () => {
  const tokenPath = tokenLinkPath('verify-email', 'MQ', 'abc-123');

  it('goes to the invalid page when the server found the token invalid', async () => {
    const { router } = renderApp(tokenPath, {
      initialData: makeInitialData({ extra: { verifyEmailConfirm: { isValid: false } } }),
    });
    expect(
      await screen.findByRole('heading', { name: 'This link is invalid or has expired' }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth/verify-email/confirm/invalid');
    expect(screen.getByRole('link', { name: 'Request a new link' })).toHaveAttribute(
      'href',
      '/auth/verify-email/resend',
    );
  });

  it('goes to the invalid page when the page data says nothing', async () => {
    const { router } = renderApp(tokenPath);
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/verify-email/confirm/invalid'));
  });

  it('confirms only on the button press', async () => {
    const user = userEvent.setup();
    const server = createFakeServer({ 'POST /api/auth/verify-email/confirm': [200, authResponse(verified)] });
    const { router } = renderApp(tokenPath, {
      initialData: makeInitialData({ extra: { verifyEmailConfirm: { isValid: true } } }),
      server,
    });
    const button = await screen.findByRole('button', { name: 'Confirm e-mail address' });
    expect(server.calls('POST /api/auth/verify-email/confirm')).toHaveLength(0);
    await user.click(button);
    expect(
      await screen.findByRole('heading', { name: 'Your e-mail address is verified' }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth/verify-email/confirm/success');
    expect(server.calls('POST /api/auth/verify-email/confirm')[0]?.body).toEqual({
      uidb64: 'MQ',
      token: 'abc-123',
    });
  });

  it('shows the invalid page when the POST says invalid_token', async () => {
    const user = userEvent.setup();
    const server = createFakeServer({
      'POST /api/auth/verify-email/confirm': [
        400,
        { nonFieldErrors: ['This link is invalid or has expired.'], MainCode_: 'invalid_token' },
      ],
    });
    const { router } = renderApp(tokenPath, {
      initialData: makeInitialData({ extra: { verifyEmailConfirm: { isValid: true } } }),
      server,
    });
    await user.click(await screen.findByRole('button', { name: 'Confirm e-mail address' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/verify-email/confirm/invalid'));
  });
});

describe('logout and lost sessions', () => {
  it('/settings/logout logs out and shows the login page', async () => {
    const server = createFakeServer({
      'POST /api/auth/logout': [200, authResponse(makeInitialData().user)],
    });
    const { router, services } = renderApp('/settings/logout', { initialData: signedIn(), server });
    expect(await screen.findByRole('heading', { name: 'Log in' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth/login');
    expect(services.session.get().user.isAuthenticated).toBe(false);
    expect(await screen.findByText('Logged out')).toBeInTheDocument();
  });

  it('a "not authenticated" answer clears the session and goes to login', async () => {
    const server = createFakeServer({
      'GET /api/dev/outbox': [403, { detail: 'Authentication credentials were not provided.' }],
    });
    const { router, services } = renderApp('/dev/outbox', { initialData: signedIn(), server });
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login'));
    expect(router.state.location.search).toEqual({ next: '/dev/outbox' });
    expect(services.session.get().user.isAuthenticated).toBe(false);
  });
});

describe('dev outbox', () => {
  it('lists messages with clickable links', async () => {
    const server = createFakeServer({
      'GET /api/dev/outbox': [
        200,
        {
          results: [
            {
              id: 2,
              channel: 'email',
              to: 'ada@example.com',
              subject: 'Verify your e-mail address',
              text: 'Open http://localhost:3000/auth/verify-email/confirm/MQ/tok/ to verify.',
              createdAt: '2026-01-02T10:00:00Z',
            },
          ],
        },
      ],
    });
    renderApp('/dev/outbox', { server });
    expect(await screen.findByText('Verify your e-mail address')).toBeInTheDocument();
    expect(
      screen.getByRole('link', { name: 'http://localhost:3000/auth/verify-email/confirm/MQ/tok/' }),
    ).toHaveAttribute('href', 'http://localhost:3000/auth/verify-email/confirm/MQ/tok/');
  });
});
