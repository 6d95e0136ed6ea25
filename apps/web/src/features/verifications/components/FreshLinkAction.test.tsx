import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ApiRefreshLink, VerificationDetail } from '@veriform/contracts';
import { describe, expect, it } from 'vitest';
import { type Answer, createFakeServer } from '../../../test/fake-server';
import { renderWithRouter } from '../../../test/render';
import { FRESH_LINK_LABEL, FreshLinkAction } from './FreshLinkAction';
import { VerificationDetailView } from './VerificationDetailView';

const REFRESH = 'POST /api/verifications/42/refresh';

const detail: VerificationDetail = {
  id: 42,
  cellPhone: '+12015550101',
  externalRefId: 'CRM-42',
  verifyFormId: 7,
  verifyFormName: 'Sign-up',
  verifyFormCategory: 'Retail',
  verificationMethod: 'sms',
  isTest: false,
  source: 'hosted',
  created: '2026-03-10T15:30:00Z',
  revokedAt: null,
  revocationId: null,
  email: null,
  codeSentAt: '2026-03-10T15:29:00Z',
  verifiedAt: '2026-03-10T15:30:00Z',
  attempts: 1,
  ip: '203.0.113.9',
  userAgent: 'Mozilla/5.0 (iPhone)',
  consent: null,
  redactedAt: null,
  revocation: null,
  carrier: null,
  simSwap: null,
  reassignment: null,
  refreshes: null,
  heldBy: [],
  holds: [],
};

const link: ApiRefreshLink = {
  hostedUrl: 'https://veriform.example/f/AbCdEfGh?ref=CRM-42&refresh=TokenTokenTokenTokenTo',
  refreshes: 'AbCdEfGhIjKlMnOpQrStUv',
  expiresAt: '2026-12-20T10:00:00Z',
};

function renderAction(verification: VerificationDetail, answer?: Answer | (() => Promise<Answer>)) {
  const server = createFakeServer(answer ? { [REFRESH]: answer } : {});
  const view = renderWithRouter(<FreshLinkAction verification={verification} accountId={21} />, { server });
  return { ...view, server };
}

const button = () => screen.findByRole('button', { name: FRESH_LINK_LABEL });

describe('the verification’s fresh verification link', () => {
  it('makes a link with the CSRF token, shows it is working, then the link to copy; Done closes it', async () => {
    const user = userEvent.setup();
    let answer: (value: Answer) => void = () => {};
    const view = renderAction(detail, () => new Promise<Answer>((resolve) => (answer = resolve)));
    await user.click(await button());
    const dialog = await screen.findByRole('dialog', { name: FRESH_LINK_LABEL });
    const field = within(dialog).getByLabelText('Link');
    expect(field).toHaveAttribute('aria-busy', 'true');
    expect(within(dialog).getByRole('button', { name: 'Copy link' })).toBeDisabled();
    const [posted] = view.server.calls(REFRESH);
    expect(posted?.headers['X-CSRFToken']).toBe('csrf-initial');
    expect(posted?.url.searchParams.get('account')).toBe('21');
    expect(dialog).toHaveTextContent('keeps its reference, CRM-42');

    answer([201, link]);
    await waitFor(() => expect(field).toHaveValue(link.hostedUrl));
    expect(within(dialog).getByRole('button', { name: 'Copy link' })).toBeEnabled();
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('says why it could not be made, in the server’s words', async () => {
    const user = userEvent.setup();
    renderAction(detail, [
      400,
      {
        nonFieldErrors: [
          'This verification’s form is inactive: make it live before sending a fresh verification link.',
        ],
        MainCode_: 'validation_error',
      },
    ]);
    await user.click(await button());
    const dialog = await screen.findByRole('dialog', { name: FRESH_LINK_LABEL });
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('This verification’s form is inactive');
    expect(within(dialog).queryByLabelText('Link')).toBeNull();
  });

  it('is prominent when the consent was revoked or the number reassigned, and says why', async () => {
    const user = userEvent.setup();
    const plain = renderAction(detail);
    expect(await button()).toHaveAttribute('data-variant', 'default');
    plain.unmount();

    const reassigned = renderAction(
      {
        ...detail,
        reassignment: {
          checkedAt: '2026-11-20T10:00:00Z',
          lastVerifiedDate: '2026-03-10',
          answer: 'yes',
          errorCode: null,
        },
      },
      [201, link],
    );
    expect(await button()).toHaveAttribute('data-variant', 'filled');
    await user.click(await button());
    expect(await screen.findByRole('dialog', { name: FRESH_LINK_LABEL })).toHaveTextContent(
      'The number was reassigned since this consent.',
    );
    reassigned.unmount();

    renderAction({ ...detail, revokedAt: '2026-04-01T00:00:00Z', revocationId: 'rev_1' });
    expect(await button()).toHaveAttribute('data-variant', 'filled');
  });

  it('is not offered for a redacted verification', async () => {
    renderAction({ ...detail, redactedAt: '2026-04-01T00:00:00Z' });
    await waitFor(() => expect(screen.queryByRole('button', { name: FRESH_LINK_LABEL })).toBeNull());
  });
});

describe('a verification that refreshes another', () => {
  it('names it, linked to its detail', async () => {
    const server = createFakeServer({
      'GET /api/verifications/42/timeline': [200, { events: [] }],
    });
    renderWithRouter(<VerificationDetailView verification={{ ...detail, refreshes: 17 }} accountId={21} />, {
      server,
    });
    const refreshed = await screen.findByRole('link', { name: 'Verification 17' });
    expect(refreshed.getAttribute('href')).toMatch(/^\/activity-log\/17(\?|$)/);
    expect(refreshed.closest('div')).toHaveTextContent('Refreshes');
  });
});
