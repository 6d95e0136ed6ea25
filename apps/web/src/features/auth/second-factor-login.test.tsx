import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { secondFactorTexts } from '@veriform/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { authResponse, createFakeServer, makeMembership, makeUser } from '../../test/fake-server';
import { renderApp } from '../../test/render';

const ada = makeUser();
const mfaRequired = (methods: string[]) => [200, { mfaRequired: true, methods }] as [number, unknown];

async function passwordStep(user: ReturnType<typeof userEvent.setup>) {
  await user.type(await screen.findByLabelText(/^Email/), 'ada@example.com');
  await user.type(screen.getByLabelText(/^Password/, { selector: 'input' }), 'analytical1!');
  await user.click(screen.getByRole('button', { name: 'Log in' }));
}

describe('Sign-in with a second factor (issue #38)', { timeout: 30_000 }, () => {
  afterEach(() => {
    Reflect.deleteProperty(window, 'PublicKeyCredential');
  });

  it('asks the app’s code after the password: a wrong one under the box, the right one signs in', async () => {
    const user = userEvent.setup();
    let tries = 0;
    const server = createFakeServer({
      'POST /api/auth/login': mfaRequired(['totp', 'recovery_code']),
      'POST /api/auth/login/mfa': () =>
        ++tries === 1
          ? [400, { code: [secondFactorTexts.wrongCode], MainCode_: 'validation_error' }]
          : [200, authResponse(ada, [makeMembership()])],
    });
    const { router } = renderApp('/auth/login/?next=%2Fforms%2F', { server });
    await passwordStep(user);

    const step = await screen.findByRole('form', { name: 'Second factor' });
    const code = within(step).getByRole('textbox', { name: 'Authentication code' });
    await waitFor(() => expect(code).toHaveFocus());
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(code).toHaveAttribute('inputmode', 'numeric');
    // No WebAuthn in jsdom, and none offered: no passkey button.
    expect(within(step).queryByRole('button', { name: 'Use a passkey' })).toBeNull();

    await user.type(code, '12a');
    await user.click(within(step).getByRole('button', { name: 'Verify' }));
    expect(
      await within(step).findByText('Enter the 6-digit code from your authenticator app.', {
        selector: 'p[id$="-code-error"]',
      }),
    ).toBeVisible();
    expect(server.calls('POST /api/auth/login/mfa')).toHaveLength(0);

    await user.clear(code);
    await user.type(code, '123 456');
    await user.click(within(step).getByRole('button', { name: 'Verify' }));
    expect(await within(step).findByText(secondFactorTexts.wrongCode)).toBeVisible();
    expect(code).toHaveAttribute('aria-invalid', 'true');

    await user.clear(code);
    await user.type(code, '654321');
    await user.click(within(step).getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('heading', { name: 'Forms' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/forms/');
    expect(server.calls('POST /api/auth/login/mfa').map((c) => c.body)).toEqual([
      { method: 'totp', code: '123456' },
      { method: 'totp', code: '654321' },
    ]);
  });

  it('a recovery code instead', async () => {
    const user = userEvent.setup();
    const server = createFakeServer({
      'POST /api/auth/login': mfaRequired(['totp', 'passkey', 'recovery_code']),
      'POST /api/auth/login/mfa': [200, authResponse(ada, [makeMembership()])],
    });
    renderApp('/auth/login/?next=%2Fforms%2F', { server });
    await passwordStep(user);
    const step = await screen.findByRole('form', { name: 'Second factor' });
    await user.click(within(step).getByRole('button', { name: 'Use a recovery code' }));
    const code = within(step).getByRole('textbox', { name: 'Recovery code' });
    expect(code).toHaveFocus();
    await user.type(code, 'ABCDE-12345');
    await user.click(within(step).getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('heading', { name: 'Forms' })).toBeInTheDocument();
    expect(server.calls('POST /api/auth/login/mfa')[0]?.body).toEqual({
      method: 'recovery_code',
      code: 'abcde12345',
    });
  });

  it('an expired sign-in goes back to the password with the server’s words', async () => {
    const user = userEvent.setup();
    const server = createFakeServer({
      'POST /api/auth/login': mfaRequired(['totp']),
      'POST /api/auth/login/mfa': [
        400,
        { nonFieldErrors: [secondFactorTexts.noPendingLogin], MainCode_: 'invalid_token' },
      ],
    });
    renderApp('/auth/login', { server });
    await passwordStep(user);
    const step = await screen.findByRole('form', { name: 'Second factor' });
    expect(within(step).queryByRole('button', { name: 'Use a recovery code' })).toBeNull();
    await user.type(within(step).getByRole('textbox', { name: 'Authentication code' }), '123456');
    await user.click(within(step).getByRole('button', { name: 'Verify' }));

    const login = await screen.findByRole('form', { name: 'Log in' });
    expect(within(login).getByRole('alert')).toHaveTextContent(secondFactorTexts.noPendingLogin);
    expect(screen.queryByRole('form', { name: 'Second factor' })).toBeNull();
  });

  it('offers the passkeys where the browser has WebAuthn; a failed one says so in place', async () => {
    const user = userEvent.setup();
    // A browser with WebAuthn whose prompt the person closes (the library reports NotAllowedError).
    Object.defineProperty(window, 'PublicKeyCredential', {
      value: function PublicKeyCredential() {},
      configurable: true,
    });
    const server = createFakeServer({
      'POST /api/auth/login': mfaRequired(['passkey']),
      'POST /api/auth/passkeys/authentication-options': [500, { detail: 'boom' }],
    });
    renderApp('/auth/login', { server });
    expect(await screen.findByRole('button', { name: 'Sign in with a passkey' })).toBeEnabled();
    await passwordStep(user);
    const step = await screen.findByRole('form', { name: 'Second factor' });
    // Only a passkey is offered: no code box.
    expect(within(step).queryByRole('textbox')).toBeNull();
    await user.click(within(step).getByRole('button', { name: 'Use a passkey' }));
    expect(await within(step).findByRole('alert')).toHaveTextContent(/unexpected server error/);
    await user.click(within(step).getByRole('button', { name: 'Back to sign in' }));
    expect(await screen.findByRole('form', { name: 'Log in' })).toBeInTheDocument();
  });
});
