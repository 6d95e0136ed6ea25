import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  BROADCAST_CHANNEL,
  type EmailChangeRequest,
  errorTexts,
  serverTexts,
  tokenLinkPath,
} from '@veriform/contracts';
import { describe, expect, it } from 'vitest';
import {
  authResponse,
  createFakeServer,
  makeInitialData,
  makeMembership,
  makeUser,
} from '../test/fake-server';
import { renderApp } from '../test/render';

const ada = makeUser();
const signedIn = (over: Parameters<typeof makeUser>[0] = {}) =>
  makeInitialData({
    user: makeUser(over),
    memberships: [makeMembership()],
    currentMembership: makeMembership(),
  });

const noEmailChange: EmailChangeRequest = {
  id: null,
  user: 1,
  fromEmail: '',
  toEmail: '',
  requestedAt: null,
  successfullyChangedAt: null,
  lastRequestedANewFromOrToEmailAt: null,
  lastSentAChangeEmailAt: null,
  lastSuccessfullyChangedAt: null,
  status: '',
  status_display: '',
};

describe('forgotten password /auth/reset-password/', () => {
  it('is reached from the login page and leads to the sent page', async () => {
    const user = userEvent.setup();
    const server = createFakeServer({
      'POST /api/auth/reset-password': [200, { detail: serverTexts.resetPasswordSent }],
    });
    const { router } = renderApp('/auth/login/', { server });
    await user.click(await screen.findByRole('link', { name: 'Forgot password?' }));
    expect(await screen.findByRole('heading', { name: 'Reset your password' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth/reset-password/');

    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByRole('heading', { name: 'Check your inbox' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth/reset-password/sent');
    expect(screen.getByText(serverTexts.resetPasswordSent)).toBeInTheDocument();
    expect(server.calls('POST /api/auth/reset-password')[0]?.body).toEqual({ email: 'ada@example.com' });
  });

  it('says when too many links were asked for', async () => {
    const user = userEvent.setup();
    const server = createFakeServer({
      'POST /api/auth/reset-password': [429, { detail: 'Too many requests. Try again in 5 minutes.' }],
    });
    renderApp('/auth/reset-password/', { server });
    await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many requests. Try again in 5 minutes.');
  });

  it('is open to signed-in users too, with their address filled in', async () => {
    renderApp('/auth/reset-password/', { initialData: signedIn() });
    expect(await screen.findByLabelText('Email')).toHaveValue('ada@example.com');
  });
});

describe('reset link /auth/reset-password/confirm/$uidb64/$secretToken/', () => {
  const tokenPath = tokenLinkPath('reset-password', 'MQ', 'set-abc');
  const valid = makeInitialData({ extra: { resetPasswordConfirm: { isValid: true } } });

  it('goes to the invalid page when the page data says nothing', async () => {
    const { router } = renderApp(tokenPath);
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/reset-password/confirm/invalid'));
  });

  it('goes to the invalid page when the server found the token invalid', async () => {
    const { router } = renderApp(tokenPath, {
      initialData: makeInitialData({ extra: { resetPasswordConfirm: { isValid: false } } }),
    });
    expect(
      await screen.findByRole('heading', { name: 'This link is invalid or has expired' }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth/reset-password/confirm/invalid');
    expect(screen.getByRole('link', { name: 'Request a new link' })).toHaveAttribute(
      'href',
      '/auth/reset-password/',
    );
  });

  it('sets the new password, then the login page says so', async () => {
    const user = userEvent.setup();
    const server = createFakeServer({
      'POST /api/auth/reset-password/confirm': [200, authResponse(makeInitialData().user)],
    });
    const { router } = renderApp(tokenPath, { initialData: valid, server });
    const password = await screen.findByLabelText('New password', { selector: 'input' });
    await user.type(password, 'weak');
    const checklist = screen.getByRole('list', { name: 'Password requirements' });
    expect(within(checklist).getByText('At least 1 number').closest('li')).toHaveAttribute(
      'data-met',
      'false',
    );
    await user.clear(password);
    await user.type(password, 'brand new secret 7#');
    expect(within(checklist).getByText('At least 1 number').closest('li')).toHaveAttribute(
      'data-met',
      'true',
    );
    await user.type(
      screen.getByLabelText('Confirm new password', { selector: 'input' }),
      'brand new secret 7#',
    );
    await user.click(screen.getByRole('button', { name: 'Set new password' }));

    expect(await screen.findByRole('heading', { name: 'Log in' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth/login/');
    expect(screen.getByText('Password reset')).toBeInTheDocument();
    expect(screen.getByText('Log in with your new password.')).toBeInTheDocument();
    expect(server.calls('POST /api/auth/reset-password/confirm')[0]?.body).toEqual({
      uidb64: 'MQ',
      token: 'set-abc',
      newPassword: 'brand new secret 7#',
      newPasswordConfirm: 'brand new secret 7#',
    });
  });

  it('shows the server’s field errors beside the fields', async () => {
    const user = userEvent.setup();
    const server = createFakeServer({
      'POST /api/auth/reset-password/confirm': [
        400,
        { newPasswordConfirm: [errorTexts.passwordsDontMatch], MainCode_: 'validation_error' },
      ],
    });
    renderApp(tokenPath, { initialData: valid, server });
    await user.type(
      await screen.findByLabelText('New password', { selector: 'input' }),
      'brand new secret 7#',
    );
    await user.type(
      screen.getByLabelText('Confirm new password', { selector: 'input' }),
      'brand new secret 7#',
    );
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByText(errorTexts.passwordsDontMatch)).toBeInTheDocument();
    expect(screen.getByLabelText('Confirm new password', { selector: 'input' })).toHaveAttribute(
      'aria-invalid',
      'true',
    );
  });

  it('goes to the invalid page when the POST says invalid_token', async () => {
    const user = userEvent.setup();
    const server = createFakeServer({
      'POST /api/auth/reset-password/confirm': [
        400,
        { nonFieldErrors: [errorTexts.invalidToken], MainCode_: 'invalid_token' },
      ],
    });
    const { router } = renderApp(tokenPath, { initialData: valid, server });
    await user.type(
      await screen.findByLabelText('New password', { selector: 'input' }),
      'brand new secret 7#',
    );
    await user.type(
      screen.getByLabelText('Confirm new password', { selector: 'input' }),
      'brand new secret 7#',
    );
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/reset-password/confirm/invalid'));
  });
});

describe('e-mail change link /auth/change-email/confirm/$uidb64/$secretToken/', () => {
  const tokenPath = tokenLinkPath('change-email', 'MQ', 'chg-abc');

  it('goes to the invalid page when the page data says nothing or invalid', async () => {
    const first = renderApp(tokenPath);
    await waitFor(() =>
      expect(first.router.state.location.pathname).toBe('/auth/change-email/confirm/invalid'),
    );
    first.unmount();
    const second = renderApp(tokenPath, {
      initialData: makeInitialData({ extra: { changeEmailConfirm: { isValid: false } } }),
    });
    expect(
      await screen.findByRole('heading', { name: 'This link is invalid or has expired' }),
    ).toBeInTheDocument();
    expect(second.router.state.location.pathname).toBe('/auth/change-email/confirm/invalid');
  });

  it('confirms on the button press, tells the other tabs, and shows the success page', async () => {
    const user = userEvent.setup();
    const changed = { ...ada, email: 'new@example.com' };
    const server = createFakeServer({
      'POST /api/auth/change-email/confirm': [200, authResponse(changed, [makeMembership()])],
    });
    const heard: unknown[] = [];
    const otherTab = new BroadcastChannel(BROADCAST_CHANNEL);
    otherTab.onmessage = (event) => heard.push(event.data);
    try {
      const { router, services } = renderApp(tokenPath, {
        initialData: { ...signedIn(), extra: { changeEmailConfirm: { isValid: true } } },
        server,
      });
      const button = await screen.findByRole('button', { name: 'Confirm new e-mail address' });
      expect(server.calls('POST /api/auth/change-email/confirm')).toHaveLength(0);
      await user.click(button);
      expect(
        await screen.findByRole('heading', { name: 'Your e-mail address has been changed' }),
      ).toBeInTheDocument();
      expect(router.state.location.pathname).toBe('/auth/change-email/confirm/success');
      expect(screen.getByRole('link', { name: 'Continue' })).toHaveAttribute('href', '/');
      expect(server.calls('POST /api/auth/change-email/confirm')[0]?.body).toEqual({
        uidb64: 'MQ',
        token: 'chg-abc',
      });
      expect(services.session.get().user.email).toBe('new@example.com');
      await waitFor(() => expect(heard).toEqual([{ type: 'user.emailChanged' }]));
    } finally {
      otherTab.close();
    }
  });

  it('goes to the invalid page when the POST says invalid_token', async () => {
    const user = userEvent.setup();
    const server = createFakeServer({
      'POST /api/auth/change-email/confirm': [
        400,
        { nonFieldErrors: [errorTexts.invalidToken], MainCode_: 'invalid_token' },
      ],
    });
    const { router } = renderApp(tokenPath, {
      initialData: makeInitialData({ extra: { changeEmailConfirm: { isValid: true } } }),
      server,
    });
    await user.click(await screen.findByRole('button', { name: 'Confirm new e-mail address' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/change-email/confirm/invalid'));
  });
});

describe('My Account /settings/my-account', () => {
  const myAccountServer = (handlers: Parameters<typeof createFakeServer>[0] = {}) =>
    createFakeServer({
      'GET /api/auth/change-email/retrieve': [200, noEmailChange],
      'PATCH /api/users/1/check-delete': [200, { canDelete: true, reasons: [] }],
      ...handlers,
    });

  it('has the cards, the support link and the forgotten-password link', async () => {
    const server = myAccountServer({
      'PATCH /api/users/1/check-delete': [
        200,
        { canDelete: false, reasons: [serverTexts.onlyOwner('Acme Corp')] },
      ],
    });
    renderApp('/settings/my-account', { initialData: signedIn(), server });
    expect(await screen.findByRole('region', { name: 'Profile' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Reset Password' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'support@veriform.app' })).toHaveAttribute(
      'href',
      'mailto:support@veriform.app',
    );
    expect(screen.getByText(/To close your account, contact support/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute(
      'href',
      '/auth/reset-password/',
    );
    expect(await screen.findByText(serverTexts.onlyOwner('Acme Corp'))).toBeInTheDocument();
    expect(server.calls('PATCH /api/users/1/check-delete')).toHaveLength(1);
    // No picture yet: initials, and nothing to delete.
    expect(screen.queryByRole('button', { name: 'Delete picture' })).not.toBeInTheDocument();
  });

  it('an uploaded picture shows in the top bar too; deleting it brings the initials back', async () => {
    const user = userEvent.setup();
    const image = `/media/${'b'.repeat(64)}.webp`;
    const server = myAccountServer({
      'PATCH /api/users/1/delete-uploaded-profile-image': [200, { ...ada, uploadedProfileImage: null }],
    });
    renderApp('/settings/my-account', { initialData: signedIn({ uploadedProfileImage: image }), server });
    const menuButton = await screen.findByRole('button', { name: /^Account menu/ });
    expect(menuButton.querySelector('img')).toHaveAttribute('src', image);
    expect(screen.getByRole('img', { name: 'Profile picture' })).toHaveAttribute('src', image);

    await user.click(screen.getByRole('button', { name: 'Delete picture' }));
    await waitFor(() => expect(menuButton.querySelector('img')).toBeNull());
    expect(screen.queryByRole('button', { name: 'Delete picture' })).not.toBeInTheDocument();
    expect(screen.getByTestId('profile-avatar')).toHaveTextContent('AL');
  });

  it('a failed delete says "Failed to Delete Picture"', async () => {
    const user = userEvent.setup();
    const server = myAccountServer({
      'PATCH /api/users/1/delete-uploaded-profile-image': [500, { detail: 'Boom.' }],
    });
    renderApp('/settings/my-account', {
      initialData: signedIn({ uploadedProfileImage: '/media/x.webp' }),
      server,
    });
    await user.click(await screen.findByRole('button', { name: 'Delete picture' }));
    expect(await screen.findByText('Failed to Delete Picture')).toBeInTheDocument();
    expect(screen.getByText(errorTexts.serverError)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete picture' })).toBeInTheDocument();
  });

  it('Upload picture opens the Upload image dialog', async () => {
    const user = userEvent.setup();
    renderApp('/settings/my-account', { initialData: signedIn(), server: myAccountServer() });
    await user.click(await screen.findByRole('button', { name: 'Upload picture' }));
    const dialog = await screen.findByRole('dialog', { name: 'Upload image' });
    expect(within(dialog).getByLabelText('Image file')).toHaveAttribute('type', 'file');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Upload image' })).not.toBeInTheDocument(),
    );
  });
});
