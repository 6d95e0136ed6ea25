import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { EmailChangeRequest } from '@veriform/contracts';
import { describe, expect, it } from 'vitest';
import { postBroadcast } from '../../../lib/broadcast';
import {
  authResponse,
  createFakeServer,
  makeInitialData,
  makeMembership,
  makeUser,
} from '../../../test/fake-server';
import { renderWithRouter } from '../../../test/render';
import { EmailField } from './EmailField';

const ada = makeUser();
const initialData = makeInitialData({
  user: ada,
  memberships: [makeMembership()],
  currentMembership: makeMembership(),
});

const none: EmailChangeRequest = {
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

const pending = (toEmail: string): EmailChangeRequest => ({
  ...none,
  id: 3,
  fromEmail: ada.email,
  toEmail,
  requestedAt: '2026-01-02T00:00:00Z',
  lastSentAChangeEmailAt: '2026-01-02T00:00:00Z',
  status: 'pending',
  status_display: 'Pending',
});

const changed = (toEmail: string): EmailChangeRequest => ({
  ...pending(toEmail),
  successfullyChangedAt: '2026-01-02T01:00:00Z',
  status: 'successfully_changed',
  status_display: 'Successfully changed',
});

function setup(handlers: Parameters<typeof createFakeServer>[0] = {}) {
  const server = createFakeServer({ 'GET /api/auth/change-email/retrieve': [200, none], ...handlers });
  const view = renderWithRouter(<EmailField />, { initialData, server });
  return { ...view, server, user: userEvent.setup() };
}

const emailInput = () => screen.getByRole('textbox', { name: 'Email' });
const passwordInput = () => screen.getByLabelText(/^Password/);
/** A request whose last e-mail went out `secondsAgo` seconds ago (by this machine's clock). */
const sentAgo = (toEmail: string, secondsAgo: number): EmailChangeRequest => ({
  ...pending(toEmail),
  lastSentAChangeEmailAt: new Date(Date.now() - secondsAgo * 1000).toISOString(),
});

describe('EmailField (SPEC §2, §4)', () => {
  it('is read-only until Edit email; offers Send only for a different valid address; Cancel reverts', async () => {
    const { user } = setup();
    expect(await screen.findByRole('textbox', { name: 'Email' })).toHaveValue('ada@example.com');
    expect(emailInput()).toHaveAttribute('readonly');

    await user.click(screen.getByRole('button', { name: 'Edit email' }));
    expect(emailInput()).not.toHaveAttribute('readonly');
    expect(screen.queryByRole('button', { name: /Verification/ })).not.toBeInTheDocument();

    await user.clear(emailInput());
    expect(screen.queryByRole('button', { name: /Verification/ })).not.toBeInTheDocument();
    await user.type(emailInput(), 'new@example');
    expect(screen.queryByRole('button', { name: /Verification/ })).not.toBeInTheDocument();
    await user.type(emailInput(), '.com');
    expect(screen.getByRole('button', { name: 'Send Verification' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(emailInput()).toHaveValue('ada@example.com');
    expect(emailInput()).toHaveAttribute('readonly');
    expect(screen.getByRole('button', { name: 'Edit email' })).toBeInTheDocument();
  });

  it('sends the verification with the current password, says so, and shows the pending request', async () => {
    const { user, server } = setup({
      'POST /api/auth/change-email/request': [200, pending('new@example.com')],
    });
    await user.click(await screen.findByRole('button', { name: 'Edit email' }));
    expect(screen.queryByLabelText(/^Password/)).not.toBeInTheDocument();
    await user.clear(emailInput());
    await user.type(emailInput(), 'new@example.com');
    // Sending asks for the password: nothing goes out without it.
    await user.click(screen.getByRole('button', { name: 'Send Verification' }));
    expect(passwordInput()).toHaveAttribute('aria-invalid', 'true');
    expect(passwordInput()).toHaveFocus();
    expect(server.calls('POST /api/auth/change-email/request')).toHaveLength(0);
    await user.type(passwordInput(), 'my secret 9!');
    await user.click(screen.getByRole('button', { name: 'Send Verification' }));

    expect(await screen.findByText('Sent Verification Email')).toBeInTheDocument();
    expect(screen.getByText('Sent to new@example.com.')).toBeInTheDocument();
    expect(server.calls('POST /api/auth/change-email/request')[0]?.body).toEqual({
      toEmail: 'new@example.com',
      password: 'my secret 9!',
    });
    expect(screen.queryByLabelText(/^Password/)).not.toBeInTheDocument();
    expect(screen.getByText('Waiting for confirmation of new@example.com')).toBeInTheDocument();
    expect(screen.getByText('Pending')).toBeInTheDocument();
    expect(emailInput()).toHaveValue('ada@example.com');
    expect(screen.getByRole('button', { name: 'Refresh Status' })).toBeInTheDocument();
  });

  it('offers Resend for the pending target and resends', async () => {
    const { user, server } = setup({
      'GET /api/auth/change-email/retrieve': [200, pending('new@example.com')],
      'POST /api/auth/change-email/resend': [200, pending('new@example.com')],
    });
    expect(await screen.findByText('Waiting for confirmation of new@example.com')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Edit email' }));
    await user.clear(emailInput());
    await user.type(emailInput(), 'NEW@example.com');
    expect(screen.queryByRole('button', { name: 'Send Verification' })).not.toBeInTheDocument();
    // The link goes to the address already asked for: no password needed again.
    expect(screen.queryByLabelText(/^Password/)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Resend Verification' }));

    expect(await screen.findByText('Resent Verification Email')).toBeInTheDocument();
    expect(screen.getByText('Sent to new@example.com.')).toBeInTheDocument();
    expect(server.calls('POST /api/auth/change-email/resend')).toHaveLength(1);
    expect(server.calls('POST /api/auth/change-email/request')).toHaveLength(0);
  });

  it('shows the server’s refusal beside the field', async () => {
    const { user } = setup({
      'POST /api/auth/change-email/request': [
        400,
        { toEmail: ['A user with that e-mail address already exists.'], MainCode_: 'email_taken' },
      ],
    });
    await user.click(await screen.findByRole('button', { name: 'Edit email' }));
    await user.clear(emailInput());
    await user.type(emailInput(), 'taken@example.com');
    await user.type(passwordInput(), 'my secret 9!{Enter}');
    expect(await screen.findByText('A user with that e-mail address already exists.')).toBeInTheDocument();
    expect(emailInput()).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByText('Sent Verification Email')).not.toBeInTheDocument();
  });

  it('a wrong password is an error on the password, not on the address', async () => {
    const { user } = setup({
      'POST /api/auth/change-email/request': [
        400,
        { password: ['Your current password was entered incorrectly.'], MainCode_: 'validation_error' },
      ],
    });
    await user.click(await screen.findByRole('button', { name: 'Edit email' }));
    await user.clear(emailInput());
    await user.type(emailInput(), 'new@example.com');
    await user.type(passwordInput(), 'not it{Enter}');
    expect(await screen.findByText('Your current password was entered incorrectly.')).toBeInTheDocument();
    expect(passwordInput()).toHaveAttribute('aria-invalid', 'true');
    expect(emailInput()).not.toHaveAttribute('aria-invalid', 'true');
    expect(emailInput()).toHaveValue('new@example.com');
  });

  it('right after a send, Resend counts down instead of being offered (issue 13 item 14)', async () => {
    const { user, server } = setup({
      'POST /api/auth/change-email/request': () => [200, sentAgo('new@example.com', 0)],
      'POST /api/auth/change-email/resend': () => [200, sentAgo('new@example.com', 0)],
    });
    await user.click(await screen.findByRole('button', { name: 'Edit email' }));
    await user.clear(emailInput());
    await user.type(emailInput(), 'new@example.com');
    await user.type(passwordInput(), 'my secret 9!{Enter}');
    expect(await screen.findByText('Sent Verification Email')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Edit email' }));
    await user.clear(emailInput());
    await user.type(emailInput(), 'new@example.com');
    const resend = screen.getByRole('button', { name: /^Resend Verification \((29|30) s\)$/ });
    expect(resend).toBeDisabled();
    expect(screen.getByText(/the next one can be sent in (29|30) s\./)).toBeInTheDocument();
    await user.click(resend);
    // Another address within the spacing: the same wait, on Send.
    await user.clear(emailInput());
    await user.type(emailInput(), 'other@example.com');
    expect(screen.getByRole('button', { name: /^Send Verification \(\d+ s\)$/ })).toBeDisabled();
    expect(server.calls('POST /api/auth/change-email/resend')).toHaveLength(0);
    expect(server.calls('POST /api/auth/change-email/request')).toHaveLength(1);
  });

  it('the countdown ends when the spacing has passed, and Resend is offered', async () => {
    const { user, server } = setup({
      'GET /api/auth/change-email/retrieve': [200, sentAgo('new@example.com', 26)],
      'POST /api/auth/change-email/resend': [200, pending('new@example.com')],
    });
    await user.click(await screen.findByRole('button', { name: 'Edit email' }));
    await user.clear(emailInput());
    await user.type(emailInput(), 'new@example.com');
    expect(screen.getByRole('button', { name: /^Resend Verification \([1-4] s\)$/ })).toBeDisabled();
    const ready = await screen.findByRole('button', { name: 'Resend Verification' }, { timeout: 8000 });
    expect(ready).toBeEnabled();
    await user.click(ready);
    expect(await screen.findByText('Resent Verification Email')).toBeInTheDocument();
    expect(server.calls('POST /api/auth/change-email/resend')).toHaveLength(1);
  }, 15_000); // waits out the real clock's last few seconds

  it('a refusal for too many requests is a toast, never an error on the address', async () => {
    const { user, server } = setup({
      'POST /api/auth/change-email/request': [
        429,
        { detail: 'Too many requests. Try again in 1 minute.', MainCode_: 'rate_limited' },
      ],
    });
    await user.click(await screen.findByRole('button', { name: 'Edit email' }));
    await user.clear(emailInput());
    await user.type(emailInput(), 'new@example.com');
    await user.type(passwordInput(), 'my secret 9!{Enter}');
    expect(await screen.findByText('Not sent')).toBeInTheDocument();
    expect(screen.getByText('Too many requests. Try again in 1 minute.')).toBeInTheDocument();
    expect(emailInput()).not.toHaveAttribute('aria-invalid', 'true');
    expect(passwordInput()).not.toHaveAttribute('aria-invalid', 'true');
    // The request is read again: the wait starts from when the last e-mail really went.
    await waitFor(() => expect(server.calls('GET /api/auth/change-email/retrieve')).toHaveLength(2));
  });

  it('Refresh Status: warns "Not Yet Changed" while the address is still the old one', async () => {
    const { user, server } = setup({
      'GET /api/auth/change-email/retrieve': [200, pending('new@example.com')],
      'POST /api/auth/refresh-me': [200, authResponse(ada, [makeMembership()])],
    });
    await user.click(await screen.findByRole('button', { name: 'Refresh Status' }));
    expect(await screen.findByText('Not Yet Changed')).toBeInTheDocument();
    expect(screen.getByText('Your email has not yet been changed to new@example.com.')).toBeInTheDocument();
    expect(server.calls('POST /api/auth/refresh-me')).toHaveLength(1);
    expect(server.calls('GET /api/auth/change-email/retrieve')).toHaveLength(2);
  });

  it('Refresh Status: "Successfully changed" once the session has the new address', async () => {
    let confirmed = false;
    const { user, services } = setup({
      'GET /api/auth/change-email/retrieve': () => [
        200,
        confirmed ? changed('new@example.com') : pending('new@example.com'),
      ],
      'POST /api/auth/refresh-me': () => [
        200,
        authResponse(confirmed ? { ...ada, email: 'new@example.com' } : ada, [makeMembership()]),
      ],
    });
    const refresh = await screen.findByRole('button', { name: 'Refresh Status' });
    confirmed = true;
    await user.click(refresh);
    expect(await screen.findByText('Successfully changed')).toBeInTheDocument();
    expect(
      screen.getByText('Your email has been successfully changed to new@example.com.'),
    ).toBeInTheDocument();
    expect(services.session.get().user.email).toBe('new@example.com');
    expect(emailInput()).toHaveValue('new@example.com');
    expect(screen.queryByRole('button', { name: 'Refresh Status' })).not.toBeInTheDocument();
  });

  it('Refresh Status: an error toast when the check fails', async () => {
    const { user } = setup({
      'GET /api/auth/change-email/retrieve': [200, pending('new@example.com')],
      'POST /api/auth/refresh-me': [503, { detail: 'Down.' }],
    });
    await user.click(await screen.findByRole('button', { name: 'Refresh Status' }));
    expect(await screen.findByText('Failed to Refresh Email Change Status')).toBeInTheDocument();
  });

  it('refreshes by itself when another tab broadcasts user.emailChanged', async () => {
    let confirmed = false;
    const { server } = setup({
      'GET /api/auth/change-email/retrieve': () => [
        200,
        confirmed ? changed('new@example.com') : pending('new@example.com'),
      ],
      'POST /api/auth/refresh-me': () => [
        200,
        authResponse(confirmed ? { ...ada, email: 'new@example.com' } : ada, [makeMembership()]),
      ],
    });
    expect(await screen.findByText('Waiting for confirmation of new@example.com')).toBeInTheDocument();
    confirmed = true;
    postBroadcast({ type: 'user.emailChanged' });
    expect(
      await screen.findByText('Your email has been successfully changed to new@example.com.'),
    ).toBeInTheDocument();
    await waitFor(() => expect(emailInput()).toHaveValue('new@example.com'));
    expect(server.calls('POST /api/auth/refresh-me')).toHaveLength(1);
  });
});
