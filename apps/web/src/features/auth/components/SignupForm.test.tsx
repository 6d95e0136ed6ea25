import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { authResponse, createFakeServer, makeUser } from '../../../test/fake-server';
import { renderWithRouter } from '../../../test/render';
import { SignupForm } from './SignupForm';

async function fillIn(overrides: Partial<Record<string, string>> = {}) {
  const user = userEvent.setup();
  const values = {
    'First name': 'Ada',
    'Last name': 'Lovelace',
    Email: 'ada@example.com',
    Password: 'analytical1!',
    'Confirm password': 'analytical1!',
    ...overrides,
  };
  for (const [label, value] of Object.entries(values)) {
    const input = await screen.findByLabelText(new RegExp(`^${label}`), { selector: 'input' });
    if (value) await user.type(input, value);
  }
  await user.click(screen.getByRole('button', { name: 'Sign up' }));
  return user;
}

const input = (label: string) => screen.getByLabelText(new RegExp(`^${label}`), { selector: 'input' });

describe('SignupForm', () => {
  it('shows the server’s field errors beside their fields and non-field errors in the alert', async () => {
    const server = createFakeServer({
      'POST /api/auth/signup': [
        400,
        {
          email: ['A user with that e-mail address already exists.'],
          password: ['Password does not meet requirements'],
          nonFieldErrors: ['Sign-ups are paused.'],
          MainCode_: 'email_taken',
        },
      ],
    });
    const onSuccess = vi.fn();
    renderWithRouter(<SignupForm onSuccess={onSuccess} />, { server });
    await fillIn();

    const emailError = await screen.findByText('A user with that e-mail address already exists.');
    expect(input('Email')).toHaveAttribute('aria-invalid', 'true');
    expect(input('Email').getAttribute('aria-describedby')).toContain(emailError.id);
    expect(input('Password')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('Password does not meet requirements')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Other Error: Sign-ups are paused.');
    expect(screen.queryByText(/email_taken/)).not.toBeInTheDocument();
    // The live checklist describes the password input.
    const checklist = screen.getByRole('list', { name: 'Password requirements' });
    const describedBy = input('Password').getAttribute('aria-describedby') ?? '';
    expect(describedBy.split(' ').some((id) => id && document.getElementById(id)?.contains(checklist))).toBe(
      true,
    );
    expect(onSuccess).not.toHaveBeenCalled();
    await waitFor(() => expect(input('Email')).toHaveFocus());

    const [request] = server.calls('POST /api/auth/signup');
    expect(request?.body).toEqual({
      email: 'ada@example.com',
      firstName: 'Ada',
      lastName: 'Lovelace',
      password: 'analytical1!',
      passwordConfirm: 'analytical1!',
    });
    expect(request?.headers['X-CSRFToken']).toBe('csrf-initial');
  });

  it('checks on submit: mismatch and weak password beside the fields, nothing sent', async () => {
    const server = createFakeServer();
    renderWithRouter(<SignupForm onSuccess={vi.fn()} />, { server });
    await fillIn({ Password: 'short', 'Confirm password': 'other' });
    expect(await screen.findByText('Passwords must be at least 9 characters long.')).toBeInTheDocument();
    expect(input('Password')).toHaveAttribute('aria-invalid', 'true');
    expect(server.calls('POST /api/auth/signup')).toHaveLength(0);
  });

  it('reports a mismatch beside the confirmation', async () => {
    const server = createFakeServer();
    renderWithRouter(<SignupForm onSuccess={vi.fn()} />, { server });
    await fillIn({ 'Confirm password': 'analytical2!' });
    expect(await screen.findByText('The two passwords do not match.')).toBeInTheDocument();
    expect(input('Confirm password')).toHaveAttribute('aria-invalid', 'true');
  });

  it('updates the session and reports success', async () => {
    const newcomer = makeUser({ emailIsVerified: false, emailVerifiedAsOf: null });
    const server = createFakeServer({ 'POST /api/auth/signup': [200, authResponse(newcomer)] });
    const onSuccess = vi.fn();
    const { services } = renderWithRouter(<SignupForm onSuccess={onSuccess} />, { server });
    await fillIn();
    await waitFor(() => expect(onSuccess).toHaveBeenCalledTimes(1));
    expect(services.session.get().user).toEqual(newcomer);
    expect(services.api.getCsrfToken()).toBe('csrf-rotated');
  });
});
