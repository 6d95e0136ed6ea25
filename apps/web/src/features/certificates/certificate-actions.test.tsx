import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { VerificationCertificateStanding, VerificationDetail } from '@veriform/contracts';
import { describe, expect, it } from 'vitest';
import { createFakeServer, makeInitialData, makeMembership, makeUser } from '../../test/fake-server';
import { renderApp } from '../../test/render';

const owner = makeMembership();
const member = makeMembership({ role: 'member', canSearchData: true, canViewReports: false });
const signedIn = (membership = owner) =>
  makeInitialData({ user: makeUser(), memberships: [membership], currentMembership: membership });

const detail: VerificationDetail = {
  id: 42,
  cellPhone: '+14155550106',
  externalRefId: 'LN-0001',
  verifyFormId: 7,
  verifyFormName: 'Loan application',
  verifyFormCategory: 'Lending',
  verificationMethod: 'sms',
  isTest: false,
  source: 'hosted',
  created: '2026-11-20T15:00:00Z',
  email: null,
  codeSentAt: '2026-11-20T15:00:05Z',
  verifiedAt: '2026-11-20T15:01:10Z',
  attempts: 1,
  ip: '203.0.113.9',
  userAgent: 'Mozilla/5.0 (iPhone)',
  consent: null,
  redactedAt: null,
  revokedAt: null,
  revocationId: null,
  revocation: null,
  // No carrier lookups or reassigned-number check (issue #36).
  carrier: null,
  simSwap: null,
  reassignment: null,
  refreshes: null,
  heldBy: [],
  holds: [],
};

const issued: VerificationCertificateStanding = {
  certificateId: 'cert_AbCdEfGhIjKlMnOpQrStUv',
  issuedAt: '2026-11-20T15:04:00Z',
  status: 'valid',
  revokedAt: null,
  revocationReason: null,
  redactedAt: null,
  purgedAt: null,
  consentRevokedAt: null,
  reassignment: null,
};

const DETAIL = 'GET /api/verifications/42';
const STANDING = 'GET /api/verifications/42/certificate/standing';
const REVOKE = 'POST /api/verifications/42/certificate/revoke';
const REDACT = 'POST /api/verifications/42/redact';

function server(extra: Parameters<typeof createFakeServer>[0] = {}) {
  return createFakeServer({
    [DETAIL]: [200, detail],
    'GET /api/verifications/42/timeline': [200, { events: [] }],
    [STANDING]: [200, issued],
    ...extra,
  });
}

async function openMenu(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('button', { name: 'Certificate' }));
  return screen.findByRole('menu');
}

describe('/activity-log/{id}: the Certificate menu', { timeout: 20_000 }, () => {
  it('downloads are plain links with the account; the check page once issued', async () => {
    const user = userEvent.setup();
    renderApp('/activity-log/42', { initialData: signedIn(member), server: server() });
    const menu = await openMenu(user);
    const pdf = within(menu).getByRole('menuitem', { name: 'Download certificate (PDF)' });
    expect(pdf).toHaveAttribute('href', '/api/verifications/42/certificate.pdf?account=21');
    expect(pdf).toHaveAttribute('download');
    expect(within(menu).getByRole('menuitem', { name: 'Download certificate (JSON)' })).toHaveAttribute(
      'href',
      '/api/verifications/42/certificate?account=21',
    );
    await waitFor(() =>
      expect(within(menu).getByRole('menuitem', { name: 'Open its public check page' })).toHaveAttribute(
        'href',
        '/certificates/cert_AbCdEfGhIjKlMnOpQrStUv',
      ),
    );
  });

  it('the first download issues it: the menu offers the check page without a reload (issue #33 item 14)', async () => {
    const user = userEvent.setup();
    // Issued by the download itself, which the browser makes (a plain link): the server has it a moment later.
    let current: VerificationCertificateStanding = { ...issued, certificateId: null, issuedAt: null };
    const fake = server({ [STANDING]: () => [200, current] });
    renderApp('/activity-log/42', { initialData: signedIn(member), server: fake });
    const menu = await openMenu(user);
    expect(within(menu).queryByRole('menuitem', { name: 'Open its public check page' })).toBeNull();
    const pdf = within(menu).getByRole('menuitem', { name: 'Download certificate (PDF)' });
    // jsdom does not download: the click is what the page sees, as in a browser.
    pdf.addEventListener('click', (event) => event.preventDefault());
    await user.click(pdf);
    const readsBefore = fake.calls(STANDING).length;
    current = issued;
    await waitFor(() => expect(fake.calls(STANDING).length).toBeGreaterThan(readsBefore), { timeout: 3000 });
    const reopened = await openMenu(user);
    expect(
      await within(reopened).findByRole('menuitem', { name: 'Open its public check page' }),
    ).toHaveAttribute('href', '/certificates/cert_AbCdEfGhIjKlMnOpQrStUv');
    // Once issued, the standing is not read again.
    const reads = fake.calls(STANDING).length;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(fake.calls(STANDING)).toHaveLength(reads);
  });

  it('a member sees no revoke or redact', async () => {
    const user = userEvent.setup();
    renderApp('/activity-log/42', { initialData: signedIn(member), server: server() });
    const menu = await openMenu(user);
    expect(within(menu).getByRole('menuitem', { name: 'Download certificate (PDF)' })).toBeInTheDocument();
    expect(within(menu).queryByRole('menuitem', { name: 'Revoke certificate…' })).toBeNull();
    expect(within(menu).queryByRole('menuitem', { name: 'Redact personal data…' })).toBeNull();
  });

  it('an owner revokes with a required reason: toast, badge, menu updated', async () => {
    const user = userEvent.setup();
    const revoked = {
      ...issued,
      status: 'revoked' as const,
      revokedAt: '2026-11-22T10:00:00Z',
      revocationReason: 'Issued for the wrong customer',
    };
    let current = issued;
    const fake = server({
      [STANDING]: () => [200, current],
      [REVOKE]: () => {
        current = revoked;
        return [200, revoked];
      },
    });
    renderApp('/activity-log/42', { initialData: signedIn(owner), server: fake });
    await user.click(within(await openMenu(user)).getByRole('menuitem', { name: 'Revoke certificate…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke certificate' });
    await user.click(within(dialog).getByRole('button', { name: 'Revoke certificate' }));
    expect(await within(dialog).findByText('Say why the certificate is revoked.')).toBeInTheDocument();
    expect(fake.calls(REVOKE)).toHaveLength(0);

    await user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Issued for the wrong customer');
    await user.click(within(dialog).getByRole('button', { name: 'Revoke certificate' }));
    expect(await screen.findByText('Certificate revoked')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Revoke certificate' })).toBeNull());
    const [call] = fake.calls(REVOKE);
    expect(call?.body).toEqual({ reason: 'Issued for the wrong customer' });
    expect(call?.url.searchParams.get('account')).toBe('21');
    expect(await screen.findByText(/^Certificate revoked Nov 22, 2026/)).toBeInTheDocument();

    const menu = await openMenu(user);
    expect(within(menu).queryByRole('menuitem', { name: 'Revoke certificate…' })).toBeNull();
    expect(menu).toHaveTextContent('Revoked on Nov 22, 2026 — Issued for the wrong customer');
  });

  it('a refused revocation shows the server’s message beside the reason', async () => {
    const user = userEvent.setup();
    const fake = server({ [REVOKE]: [400, { reason: ['Too long.'] }] });
    renderApp('/activity-log/42', { initialData: signedIn(owner), server: fake });
    await user.click(within(await openMenu(user)).getByRole('menuitem', { name: 'Revoke certificate…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke certificate' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Because');
    await user.click(within(dialog).getByRole('button', { name: 'Revoke certificate' }));
    expect(await within(dialog).findByText('Too long.')).toBeInTheDocument();
  });

  it('an owner redacts after a confirmation: banner with the date, the number masked', async () => {
    const user = userEvent.setup();
    const redacted: VerificationDetail = {
      ...detail,
      cellPhone: '+1 ••• ••• 0106',
      ip: null,
      userAgent: null,
      redactedAt: '2026-11-23T08:00:00Z',
    };
    // The server answers the redacted verification from then on, as it is read again (what the redaction's answer
    // leaves out: the carrier's answers and the latest reassigned-number check, issue #36).
    let current = detail;
    const fake = server({
      [DETAIL]: () => [200, current],
      [REDACT]: () => {
        current = redacted;
        return [200, redacted];
      },
    });
    renderApp('/activity-log/42', { initialData: signedIn(owner), server: fake });
    expect(await screen.findByRole('heading', { name: '+1 (415) 555-0106' })).toBeInTheDocument();
    await user.click(within(await openMenu(user)).getByRole('menuitem', { name: 'Redact personal data…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Redact personal data' });
    expect(dialog).toHaveTextContent('This cannot be undone.');
    await user.click(within(dialog).getByRole('button', { name: 'Redact personal data' }));
    expect(await screen.findByText('Personal data redacted on Nov 23, 2026')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: '+1 ••• ••• 0106' })).toBeInTheDocument();
    expect(fake.calls(REDACT)[0]?.url.searchParams.get('account')).toBe('21');
    expect(screen.getByText('Personal data redacted')).toBeInTheDocument();
    await waitFor(() => expect(fake.calls(DETAIL)).toHaveLength(2));

    const menu = await openMenu(user);
    expect(within(menu).queryByRole('menuitem', { name: 'Redact personal data…' })).toBeNull();
  });

  it('cancelling the redaction sends nothing', async () => {
    const user = userEvent.setup();
    const fake = server();
    renderApp('/activity-log/42', { initialData: signedIn(owner), server: fake });
    await user.click(within(await openMenu(user)).getByRole('menuitem', { name: 'Redact personal data…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Redact personal data' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Redact personal data' })).toBeNull());
    expect(fake.calls(REDACT)).toHaveLength(0);
  });
});
