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

  it('sends the verification, says so, and shows the pending request', async () => {
    const { user, server } = setup({
      'POST /api/auth/change-email/request': [200, pending('new@example.com')],
    });
    await user.click(await screen.findByRole('button', { name: 'Edit email' }));
    await user.clear(emailInput());
    await user.type(emailInput(), 'new@example.com');
    await user.click(screen.getByRole('button', { name: 'Send Verification' }));

    expect(await screen.findByText('Sent Verification Email')).toBeInTheDocument();
    expect(screen.getByText('Sent to new@example.com.')).toBeInTheDocument();
    expect(server.calls('POST /api/auth/change-email/request')[0]?.body).toEqual({
      toEmail: 'new@example.com',
    });
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
    await user.type(emailInput(), 'taken@example.com{Enter}');
    expect(await screen.findByText('A user with that e-mail address already exists.')).toBeInTheDocument();
    expect(emailInput()).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByText('Sent Verification Email')).not.toBeInTheDocument();
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
