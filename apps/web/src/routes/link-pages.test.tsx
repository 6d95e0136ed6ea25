import { waitFor } from '@testing-library/react';
import { invitationPages, tokenLinkKinds, tokenLinkPath } from '@veriform/contracts';
import { describe, expect, it } from 'vitest';
import { makeFollowInvitation, makeInitialData } from '../test/fake-server';
import { renderApp } from '../test/render';

/**
 * The pages the server links to (contracts' page paths) are routes of this app, taking their secret where the server
 * puts it. The server's side (link built, page recognised, token redacted) is modules/auth/link-pages.test.ts.
 */

const everyLinkValid = makeInitialData({
  extra: {
    verifyEmailConfirm: { isValid: true },
    resetPasswordConfirm: { isValid: true },
    changeEmailConfirm: { isValid: true },
    changeEmailCancel: { isValid: true },
  },
});

describe('token link pages', () => {
  it.each(tokenLinkKinds)('%s: its page is routed, with the id and token as its params', async (kind) => {
    const path = tokenLinkPath(kind, 'MQ', 'tok-123');
    const { router } = renderApp(path, { initialData: everyLinkValid });
    await waitFor(() => expect(router.state.status).toBe('idle'));
    expect(router.state.location.pathname).toBe(path);
    const page = router.state.matches.at(-1);
    expect(page?.routeId).toMatch(/\/\$uidb64\/\$secretToken\/$/);
    expect(page?.params).toMatchObject({ uidb64: 'MQ', secretToken: 'tok-123' });
  });
});

describe('invitation pages', () => {
  it.each(Object.values(invitationPages))('%s is routed and reads the key', async (pagePath) => {
    const { router } = renderApp(`${pagePath}?key=inv-key-1`, {
      initialData: makeInitialData({
        extra: { followInvitation: makeFollowInvitation({ key: 'inv-key-1' }) },
      }),
    });
    await waitFor(() => expect(router.state.status).toBe('idle'));
    expect(router.state.location.pathname).toBe(pagePath);
    expect(router.state.location.search).toEqual({ key: 'inv-key-1' });
  });
});
