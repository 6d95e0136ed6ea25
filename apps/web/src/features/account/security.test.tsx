import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AuthSession, Passkey, SecondFactors } from '@veriform/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STEP_UP_CANCELED_TEXT } from '../../lib/api-client';
import { createFakeServer, makeInitialData, makeMembership, makeUser } from '../../test/fake-server';
import { renderApp } from '../../test/render';
import { RECOVERY_CODES_FILENAME } from './components/RecoveryCodesModal';

const ada = makeUser();
const owner = makeMembership();
const signedIn = () => makeInitialData({ user: ada, memberships: [owner], currentMembership: owner });

const factors = (over: Partial<SecondFactors> = {}): SecondFactors => ({
  totp: { enabled: false, confirmedAt: null },
  recoveryCodesLeft: 0,
  passkeys: 0,
  lastProofAt: null,
  ...over,
});
const totpOn = factors({
  totp: { enabled: true, confirmedAt: '2026-11-01T10:00:00Z' },
  recoveryCodesLeft: 8,
});
const codes = Array.from({ length: 10 }, (_, i) => `abcde-1234${i}`);
const passkey = (over: Partial<Passkey> = {}): Passkey => ({
  id: 3,
  name: 'Work laptop',
  deviceType: 'multiDevice',
  backedUp: true,
  createdAt: '2026-11-02T10:00:00Z',
  lastUsedAt: null,
  ...over,
});
const session = (over: Partial<AuthSession> = {}): AuthSession => ({
  id: 'this',
  current: true,
  userAgent: 'Mozilla/5.0',
  device: 'Chrome on macOS',
  ip: '10.0.0.2',
  place: 'Private network',
  signedInWith: 'password',
  lastSeenAt: '2026-11-30T04:00:00Z',
  createdAt: '2026-11-29T04:00:00Z',
  ...over,
});
const stepUpRequired = [
  403,
  { detail: 'Confirm it is you.', MainCode_: 'step_up_required' },
] as const satisfies [number, unknown];

/** The page's reads, each card's own answer (passkeys and sessions empty unless said). */
function securityServer(
  over: { mfa?: SecondFactors; passkeys?: Passkey[]; sessions?: AuthSession[] } = {},
  handlers: Parameters<typeof createFakeServer>[0] = {},
) {
  return createFakeServer({
    'GET /api/auth/mfa': [200, over.mfa ?? factors()],
    'GET /api/auth/passkeys': [200, over.passkeys ?? []],
    'GET /api/auth/sessions': [200, over.sessions ?? [session()]],
    ...handlers,
  });
}

const card = (name: string) => screen.findByRole('region', { name });

describe('My Account › Security', { timeout: 30_000 }, () => {
  const createObjectURL = vi.fn(() => 'blob:codes');
  beforeEach(() => {
    Object.defineProperty(URL, 'createObjectURL', { value: createObjectURL, configurable: true });
    Object.defineProperty(URL, 'revokeObjectURL', { value: vi.fn(), configurable: true });
  });
  afterEach(() => createObjectURL.mockClear());

  it('sets up the authenticator app: QR and key, a wrong first code beside the box, then the codes shown once', async () => {
    const user = userEvent.setup();
    let confirms = 0;
    const server = securityServer(
      {},
      {
        'POST /api/auth/mfa/totp': [
          200,
          {
            secret: 'JBSWY3DPEHPK3PXPJBSWY3DP',
            otpauthUrl: 'otpauth://totp/Veriform:ada?secret=JBSWY3DPEHPK3PXP',
          },
        ],
        'POST /api/auth/mfa/totp/confirm': () =>
          ++confirms === 1
            ? [400, { code: ['That code is not right, or it was already used. Try the next one.'] }]
            : [200, { recoveryCodes: codes }],
      },
    );
    renderApp('/settings/my-account', { initialData: signedIn(), server });
    const app = await card('Authenticator app');
    await user.click(await within(app).findByRole('button', { name: 'Set up authenticator app' }));

    const dialog = await screen.findByRole('dialog', { name: 'Set up an authenticator app' });
    expect(await within(dialog).findByRole('img', { name: 'QR code of the key' })).toBeInTheDocument();
    expect(within(dialog).getByTestId('totp-secret')).toHaveTextContent('JBSW Y3DP EHPK 3PXP JBSW Y3DP');
    const code = within(dialog).getByRole('textbox', { name: /Code from the app/ });
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(code).toHaveAttribute('inputmode', 'numeric');

    await user.type(code, '12');
    await user.click(within(dialog).getByRole('button', { name: 'Turn on' }));
    expect(
      await within(dialog).findByText('Enter the 6-digit code from your authenticator app.'),
    ).toBeVisible();
    expect(server.calls('POST /api/auth/mfa/totp/confirm')).toHaveLength(0);

    await user.clear(code);
    await user.type(code, '111 111');
    await user.click(within(dialog).getByRole('button', { name: 'Turn on' }));
    expect(
      await within(dialog).findByText('That code is not right, or it was already used. Try the next one.'),
    ).toBeVisible();
    await user.clear(code);
    await user.type(code, '222222');
    await user.click(within(dialog).getByRole('button', { name: 'Turn on' }));

    const saved = await screen.findByRole('dialog', { name: 'Save your recovery codes' });
    const list = within(saved).getByRole('list', { name: 'Recovery codes' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(codes);
    expect(server.calls('POST /api/auth/mfa/totp/confirm').map((c) => c.body)).toEqual([
      { code: '111111' },
      { code: '222222' },
    ]);
    expect(server.calls('POST /api/auth/mfa/totp')).toHaveLength(1);

    await user.click(within(saved).getByRole('button', { name: 'Download' }));
    expect(createObjectURL).toHaveBeenCalledTimes(1);
    expect(RECOVERY_CODES_FILENAME).toBe('veriform-recovery-codes.txt');
    const done = within(saved).getByRole('button', { name: 'Done' });
    expect(done).toBeDisabled();
    await user.click(within(saved).getByRole('checkbox', { name: 'I saved my recovery codes' }));
    await user.click(done);
    expect(await screen.findByText('Recovery codes saved')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('with the app on: new recovery codes after a confirmation, and removal behind the step-up', async () => {
    const user = userEvent.setup();
    let deletes = 0;
    const server = securityServer(
      { mfa: totpOn },
      {
        'POST /api/auth/mfa/recovery-codes': [200, { recoveryCodes: codes }],
        'DELETE /api/auth/mfa/totp': () => (++deletes === 1 ? stepUpRequired : [204]),
        'POST /api/auth/step-up': [200, { lastProofAt: '2026-11-30T04:10:00Z' }],
      },
    );
    renderApp('/settings/my-account', { initialData: signedIn(), server });
    const app = await card('Authenticator app');
    expect(await within(app).findByText('8 recovery codes left.')).toBeInTheDocument();
    expect(within(app).getByText('On')).toBeInTheDocument();

    await user.click(within(app).getByRole('button', { name: 'New recovery codes' }));
    const confirm = await screen.findByRole('dialog', { name: 'Make new recovery codes?' });
    await user.click(within(confirm).getByRole('button', { name: 'Make new codes' }));
    const saved = await screen.findByRole('dialog', { name: 'Save your recovery codes' });
    await user.click(within(saved).getByRole('checkbox', { name: 'I saved my recovery codes' }));
    await user.click(within(saved).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.click(within(app).getByRole('button', { name: 'Remove' }));
    const remove = await screen.findByRole('dialog', { name: 'Remove the authenticator app?' });
    await user.click(within(remove).getByRole('button', { name: 'Remove' }));

    const stepUp = await screen.findByRole('dialog', { name: 'Confirm it is you' });
    await user.type(
      await within(stepUp).findByRole('textbox', { name: 'Authenticator or recovery code' }),
      'ABCDE-12345',
    );
    await user.click(within(stepUp).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Authenticator app removed')).toBeInTheDocument();
    expect(server.calls('POST /api/auth/step-up').map((c) => c.body)).toEqual([
      { method: 'recovery_code', code: 'abcde12345' },
    ]);
    expect(server.calls('DELETE /api/auth/mfa/totp')).toHaveLength(2);
  });

  it('a canceled step-up leaves everything as it was and says so', async () => {
    const user = userEvent.setup();
    const server = securityServer({ mfa: totpOn }, { 'DELETE /api/auth/mfa/totp': stepUpRequired });
    renderApp('/settings/my-account', { initialData: signedIn(), server });
    const app = await card('Authenticator app');
    await user.click(await within(app).findByRole('button', { name: 'Remove' }));
    const remove = await screen.findByRole('dialog', { name: 'Remove the authenticator app?' });
    await user.click(within(remove).getByRole('button', { name: 'Remove' }));
    const stepUp = await screen.findByRole('dialog', { name: 'Confirm it is you' });
    // A wrong-looking code is refused before any call.
    await user.type(await within(stepUp).findByRole('textbox', { name: /code/ }), '12345');
    await user.click(within(stepUp).getByRole('button', { name: 'Confirm' }));
    expect(
      await within(stepUp).findByText('Enter the 6-digit code from your authenticator app.'),
    ).toBeVisible();
    await user.click(within(stepUp).getByRole('button', { name: 'Cancel' }));

    expect(await screen.findByText(STEP_UP_CANCELED_TEXT)).toBeInTheDocument();
    expect(server.calls('POST /api/auth/step-up')).toHaveLength(0);
    expect(server.calls('DELETE /api/auth/mfa/totp')).toHaveLength(1);
    expect(within(app).getByText('8 recovery codes left.')).toBeInTheDocument();
  });

  it('someone with passkeys alone confirms with a passkey: the dialog’s own button, its failure in place', async () => {
    const user = userEvent.setup();
    const server = securityServer(
      { mfa: factors({ passkeys: 1 }), passkeys: [passkey()] },
      { 'DELETE /api/auth/passkeys/3': stepUpRequired },
    );
    renderApp('/settings/my-account', { initialData: signedIn(), server });
    const list = await within(await card('Passkeys')).findByRole('table', { name: 'Passkeys' });
    await user.click(within(list).getByRole('button', { name: 'Remove Work laptop' }));
    const confirm = await screen.findByRole('dialog', { name: 'Remove this passkey?' });
    await user.click(within(confirm).getByRole('button', { name: 'Remove passkey' }));
    const stepUp = await screen.findByRole('dialog', { name: 'Confirm it is you' });
    expect(within(stepUp).queryByRole('textbox')).toBeNull();
    // jsdom has no WebAuthn: the ceremony says so, and nothing was asked of the server.
    await user.click(await within(stepUp).findByRole('button', { name: 'Use a passkey' }));
    expect(await within(stepUp).findByRole('alert')).toHaveTextContent(
      'This browser cannot use passkeys. Use another way.',
    );
    expect(server.calls('POST /api/auth/step-up')).toHaveLength(0);
  });

  it('loading and error states', async () => {
    const server = securityServer(
      {},
      {
        'GET /api/auth/mfa': [500, { detail: 'boom' }],
        'GET /api/auth/passkeys': () => new Promise(() => undefined),
        'GET /api/auth/sessions': [500, { detail: 'boom' }],
      },
    );
    renderApp('/settings/my-account', { initialData: signedIn(), server });
    expect(await screen.findByRole('progressbar', { name: 'Loading your passkeys' })).toBeInTheDocument();
    expect(
      await within(await card('Authenticator app')).findByText(/Your second factors could not be loaded/),
    ).toBeInTheDocument();
    expect(
      await within(await card('Sessions')).findByText(/Your sessions could not be loaded/),
    ).toBeInTheDocument();
  });

  it('passkeys: none yet; listed with name, created and last used; removal after a confirmation', async () => {
    const user = userEvent.setup();
    const empty = securityServer();
    const first = renderApp('/settings/my-account', { initialData: signedIn(), server: empty });
    const none = await card('Passkeys');
    expect(await within(none).findByText('No passkeys yet.')).toBeInTheDocument();
    // jsdom has no WebAuthn: the button says why it cannot be used.
    expect(within(none).getByRole('button', { name: 'Add a passkey' })).toBeDisabled();
    expect(within(none).getByText('This browser cannot use passkeys. Use another way.')).toBeInTheDocument();
    first.unmount();

    const server = securityServer(
      { passkeys: [passkey(), passkey({ id: 4, name: 'YubiKey', lastUsedAt: '2026-11-29T10:00:00Z' })] },
      { 'DELETE /api/auth/passkeys/3': [204] },
    );
    renderApp('/settings/my-account', { initialData: signedIn(), server });
    const list = await within(await card('Passkeys')).findByRole('table', { name: 'Passkeys' });
    expect(within(list).getByText('Work laptop')).toBeInTheDocument();
    expect(within(list).getByText('Never')).toBeInTheDocument();
    await user.click(within(list).getByRole('button', { name: 'Remove Work laptop' }));
    const confirm = await screen.findByRole('dialog', { name: 'Remove this passkey?' });
    expect(confirm).toHaveTextContent('Work laptop will no longer sign you in');
    await user.click(within(confirm).getByRole('button', { name: 'Remove passkey' }));
    expect(await screen.findByText('Passkey removed')).toBeInTheDocument();
    expect(server.calls('DELETE /api/auth/passkeys/3')).toHaveLength(1);
  });

  it('sessions: this device marked; one ended, then everywhere else', async () => {
    const user = userEvent.setup();
    const server = securityServer(
      {
        sessions: [
          session(),
          session({ id: 'phone', current: false, device: 'Safari on iOS', ip: '203.0.113.9', place: null }),
        ],
      },
      { 'DELETE /api/auth/sessions/phone': [204], 'DELETE /api/auth/sessions': [204] },
    );
    renderApp('/settings/my-account', { initialData: signedIn(), server });
    const list = await within(await card('Sessions')).findByRole('table', { name: 'Sessions' });
    const rows = within(list).getAllByRole('row');
    expect(rows[1]).toHaveTextContent('Chrome on macOS');
    expect(rows[1]).toHaveTextContent('This device');
    expect(rows[1]).toHaveTextContent('Private network · 10.0.0.2');
    expect(rows[2]).toHaveTextContent('203.0.113.9');
    expect(within(rows[1] as HTMLElement).queryByRole('button')).toBeNull();

    await user.click(within(rows[2] as HTMLElement).getByRole('button', { name: /Sign out Safari on iOS/ }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Sign out this session?' })).getByRole('button', {
        name: 'Sign out',
      }),
    );
    expect(await screen.findByText('Safari on iOS is signed out.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Sign out everywhere else' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Sign out everywhere else?' })).getByRole('button', {
        name: 'Sign out',
      }),
    );
    expect(await screen.findByText('Only this device is still signed in.')).toBeInTheDocument();
    expect(server.calls('DELETE /api/auth/sessions/phone')).toHaveLength(1);
    expect(server.calls('DELETE /api/auth/sessions')).toHaveLength(1);
  });
});

describe('An account that requires a second factor', { timeout: 30_000 }, () => {
  it('a member without one is led to set it up before anything else, then continues', async () => {
    const user = userEvent.setup();
    const member = makeMembership({ role: 'member' });
    let enrolled = false;
    const server = securityServer(
      {},
      {
        'GET /api/auth/mfa': () => [200, enrolled ? totpOn : factors()],
        'GET /api/accounts/21/retention': () =>
          enrolled
            ? [403, { detail: 'You are not permitted to perform that action.' }]
            : [403, { detail: 'Set up a second factor.', MainCode_: 'mfa_setup_required' }],
        'GET /api/accounts/21/lookup-settings': [
          403,
          { detail: 'Set up a second factor.', MainCode_: 'mfa_setup_required' },
        ],
        'POST /api/auth/mfa/totp': [
          200,
          { secret: 'JBSWY3DPEHPK3PXP', otpauthUrl: 'otpauth://totp/x?secret=JBSWY3DPEHPK3PXP' },
        ],
        'POST /api/auth/mfa/totp/confirm': () => {
          enrolled = true;
          return [200, { recoveryCodes: codes }];
        },
      },
    );
    renderApp('/settings/company-info', {
      initialData: makeInitialData({ user: ada, memberships: [member], currentMembership: member }),
      server,
    });
    const screenDialog = await screen.findByRole('dialog', { name: 'Set up a second factor' });
    expect(screenDialog).toHaveTextContent('This account requires a second factor.');
    const continueButton = within(screenDialog).getByRole('button', { name: 'Continue' });
    expect(continueButton).toBeDisabled();
    expect(within(screenDialog).getByRole('button', { name: 'Sign out' })).toBeEnabled();

    await user.click(await within(screenDialog).findByRole('button', { name: 'Set up authenticator app' }));
    const setup = await screen.findByRole('dialog', { name: 'Set up an authenticator app' });
    await user.type(within(setup).getByRole('textbox', { name: /Code from the app/ }), '123456');
    await user.click(within(setup).getByRole('button', { name: 'Turn on' }));
    const saved = await screen.findByRole('dialog', { name: 'Save your recovery codes' });
    await user.click(within(saved).getByRole('checkbox', { name: 'I saved my recovery codes' }));
    await user.click(within(saved).getByRole('button', { name: 'Done' }));

    await waitFor(() => expect(continueButton).toBeEnabled());
    await user.click(continueButton);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Set up a second factor' })).toBeNull());
  });
});
