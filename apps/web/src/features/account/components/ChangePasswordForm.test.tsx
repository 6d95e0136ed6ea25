import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  authResponse,
  createFakeServer,
  makeInitialData,
  makeMembership,
  makeUser,
} from '../../../test/fake-server';
import { renderWithRouter } from '../../../test/render';
import { ChangePasswordForm } from './ChangePasswordForm';

const a = makeMembership({ id: 11 });
const b = makeMembership({ id: 12, account: { id: 22, displayName: 'Beta', uploadedProfileImage: null } });
const ada = makeUser();
const initialData = makeInitialData({ user: ada, memberships: [a, b], currentMembership: a });

const input = (label: string) => screen.getByLabelText(label, { selector: 'input' });

async function fill(user: ReturnType<typeof userEvent.setup>, current: string) {
  await user.type(await screen.findByLabelText('Current password', { selector: 'input' }), current);
  await user.type(input('New password'), 'a better secret 8$');
  await user.type(input('Confirm new password'), 'a better secret 8$');
  await user.click(screen.getByRole('button', { name: 'Update password' }));
}

describe('ChangePasswordForm (SPEC §2 Reset Password card)', () => {
  it('shows a wrong current password beside "Current password"', async () => {
    const server = createFakeServer({
      'POST /api/auth/change-password': [
        400,
        {
          previousPassword: ['Your current password was entered incorrectly.'],
          MainCode_: 'validation_error',
        },
      ],
    });
    const user = userEvent.setup();
    renderWithRouter(<ChangePasswordForm />, { initialData, server });
    await fill(user, 'not my password');

    const message = await screen.findByText('Your current password was entered incorrectly.');
    expect(input('Current password')).toHaveAttribute('aria-invalid', 'true');
    expect(input('Current password').getAttribute('aria-describedby')).toContain(message.id);
    expect(screen.queryByText('Updated password')).not.toBeInTheDocument();
    expect(server.calls('POST /api/auth/change-password')[0]?.body).toEqual({
      previousPassword: 'not my password',
      newPassword: 'a better secret 8$',
      newPasswordConfirm: 'a better secret 8$',
    });
  });

  it('checks the new password before sending', async () => {
    const server = createFakeServer();
    const user = userEvent.setup();
    renderWithRouter(<ChangePasswordForm />, { initialData, server });
    await user.type(await screen.findByLabelText('Current password', { selector: 'input' }), 'old one');
    await user.type(input('New password'), 'short');
    await user.click(screen.getByRole('button', { name: 'Update password' }));
    expect(await screen.findByText('Passwords must be at least 9 characters long.')).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'Password requirements' })).toBeInTheDocument();
    expect(server.calls('POST /api/auth/change-password')).toHaveLength(0);
  });

  it('on success: toast, cleared fields, session and current membership from the answer', async () => {
    const server = createFakeServer({
      'POST /api/auth/change-password': [
        200,
        { ...authResponse(ada, [a, b]), currentMembership: b, csrfToken: 'csrf-after-change' },
      ],
    });
    const user = userEvent.setup();
    const { services } = renderWithRouter(<ChangePasswordForm />, { initialData, server });
    expect(services.session.get().currentMembership?.id).toBe(11);
    await fill(user, 'the old secret 1!');

    expect(await screen.findByText('Updated password')).toBeInTheDocument();
    expect(screen.getByText('Your password has been updated successfully.')).toBeInTheDocument();
    await waitFor(() => expect(input('Current password')).toHaveValue(''));
    expect(input('New password')).toHaveValue('');
    expect(input('Confirm new password')).toHaveValue('');
    // SPEC §4: after a password change the current membership is reset from server data.
    expect(services.session.get().currentMembership?.id).toBe(12);
    expect(services.api.getCsrfToken()).toBe('csrf-after-change');
  });
});
