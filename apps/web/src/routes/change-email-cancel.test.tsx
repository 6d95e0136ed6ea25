import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { errorTexts, serverTexts, tokenLinkPath } from '@veriform/contracts';
import { describe, expect, it } from 'vitest';
import { createFakeServer, makeInitialData } from '../test/fake-server';
import { renderApp } from '../test/render';

/** The link sent to the OLD address when a change is requested (issue 13 item 8): GET shows, the button cancels. */
describe('cancel link /auth/change-email/cancel/$uidb64/$secretToken/', () => {
  const tokenPath = tokenLinkPath('change-email-cancel', 'MQ', 'cnl-abc');
  const valid = makeInitialData({ extra: { changeEmailCancel: { isValid: true } } });

  it('goes to the invalid page when the page data says nothing or invalid, with what to do', async () => {
    const first = renderApp(tokenPath);
    await waitFor(() =>
      expect(first.router.state.location.pathname).toBe('/auth/change-email/cancel/invalid'),
    );
    first.unmount();
    const second = renderApp(tokenPath, {
      initialData: makeInitialData({ extra: { changeEmailCancel: { isValid: false } } }),
    });
    expect(
      await screen.findByRole('heading', { name: 'This link is invalid or has expired' }),
    ).toBeInTheDocument();
    expect(second.router.state.location.pathname).toBe('/auth/change-email/cancel/invalid');
    expect(screen.getByRole('link', { name: 'Reset password' })).toHaveAttribute(
      'href',
      '/auth/reset-password',
    );
    expect(screen.getByRole('link', { name: 'support@veriform.app' })).toHaveAttribute(
      'href',
      'mailto:support@veriform.app',
    );
  });

  it('cancels only on the button press, then says so and points to a password reset', async () => {
    const user = userEvent.setup();
    const server = createFakeServer({
      'POST /api/auth/change-email/cancel': [200, { detail: serverTexts.emailChangeCancelled }],
    });
    const { router } = renderApp(tokenPath, { initialData: valid, server });
    const button = await screen.findByRole('button', { name: 'Cancel the change' });
    expect(server.calls('POST /api/auth/change-email/cancel')).toHaveLength(0);
    await user.click(button);
    expect(await screen.findByRole('heading', { name: 'The change was cancelled' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth/change-email/cancel/success');
    expect(screen.getByText(serverTexts.emailChangeCancelled)).toBeInTheDocument();
    expect(server.calls('POST /api/auth/change-email/cancel')[0]?.body).toEqual({
      uidb64: 'MQ',
      token: 'cnl-abc',
    });
  });

  it('goes to the invalid page when the POST says invalid_token (confirmed or replaced meanwhile)', async () => {
    const user = userEvent.setup();
    const server = createFakeServer({
      'POST /api/auth/change-email/cancel': [
        400,
        { nonFieldErrors: [errorTexts.invalidToken], MainCode_: 'invalid_token' },
      ],
    });
    const { router } = renderApp(tokenPath, { initialData: valid, server });
    await user.click(await screen.findByRole('button', { name: 'Cancel the change' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/change-email/cancel/invalid'));
  });
});
