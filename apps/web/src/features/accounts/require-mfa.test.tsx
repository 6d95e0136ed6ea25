import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CompanyInfo } from '@veriform/contracts';
import { describe, expect, it } from 'vitest';
import {
  createFakeServer,
  makeCompanyInfo,
  makeInitialData,
  makeMembership,
  makeTeamMembership,
  makeUser,
  teamList,
} from '../../test/fake-server';
import { renderApp } from '../../test/render';
import { REQUIRE_MFA_LABEL } from './components/RequireMfaCard';

const ada = makeUser();
const owner = makeMembership();
const member = makeMembership({ role: 'member' });
const signedIn = (membership = owner) =>
  makeInitialData({ user: ada, memberships: [membership], currentMembership: membership });
const info = (requireMfa: boolean): CompanyInfo =>
  makeCompanyInfo({ ...owner.account, auditRetentionYears: 7, consentMaxAgeMonths: 12, requireMfa });
const card = () => screen.findByRole('region', { name: 'Two-factor authentication' });

describe('Company Info: require two-factor authentication (issue #38)', { timeout: 30_000 }, () => {
  it('owners turn it on after a confirmation; Cancel leaves it off', async () => {
    const user = userEvent.setup();
    const server = createFakeServer({
      'GET /api/accounts/21': [200, info(false)],
      'PATCH /api/accounts/21': ({ body }) => [200, info((body as { requireMfa: boolean }).requireMfa)],
    });
    renderApp('/settings/company-info', { initialData: signedIn(), server });
    const section = await card();
    const toggle = await within(section).findByRole('switch', { name: REQUIRE_MFA_LABEL });
    expect(toggle).not.toBeChecked();

    await user.click(toggle);
    const confirm = await screen.findByRole('dialog', { name: 'Require two-factor authentication?' });
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(toggle).not.toBeChecked();
    expect(server.calls('PATCH /api/accounts/21')).toHaveLength(0);

    await user.click(toggle);
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Require two-factor authentication?' })).getByRole(
        'button',
        { name: 'Require it' },
      ),
    );
    expect(await screen.findByText('Two-factor authentication required')).toBeInTheDocument();
    await waitFor(() => expect(toggle).toBeChecked());
    expect(server.calls('PATCH /api/accounts/21').map((c) => c.body)).toEqual([{ requireMfa: true }]);
  });

  it('members read it; a failed read says so', async () => {
    const server = createFakeServer({ 'GET /api/accounts/21': [200, info(true)] });
    const view = renderApp('/settings/company-info', { initialData: signedIn(member), server });
    const section = await card();
    expect(
      await within(section).findByText('Every member must sign in with a second factor.'),
    ).toBeInTheDocument();
    expect(within(section).queryByRole('switch')).toBeNull();
    expect(within(section).getByText('Only owners can change it.')).toBeInTheDocument();
    view.unmount();

    renderApp('/settings/company-info', {
      initialData: signedIn(),
      server: createFakeServer({ 'GET /api/accounts/21': [500, { detail: 'boom' }] }),
    });
    expect(await within(await card()).findByRole('alert')).toHaveTextContent(/unexpected server error/);
  });
});

describe('Manage Team: each member’s second factors (issue #38)', { timeout: 30_000 }, () => {
  it('shows Authenticator app, the passkeys counted, or None', async () => {
    const rows = [
      makeTeamMembership({ id: 11, mfa: { totp: true, passkeys: 2 } }),
      makeTeamMembership({
        id: 12,
        role: 'member',
        mfa: { totp: false, passkeys: 1 },
        user: { id: 2, name: 'Bob Stone', email: 'bob@example.com' },
      }),
      makeTeamMembership({
        id: 13,
        role: 'member',
        user: { id: 3, name: 'Cy Young', email: 'cy@example.com' },
      }),
    ];
    const server = createFakeServer({
      'GET /api/memberships': [200, teamList(rows)],
      'GET /api/invitations': [200, teamList([])],
    });
    renderApp('/settings/manage-team', { initialData: signedIn(), server });
    const table = await screen.findByRole('table', { name: 'Team members' });
    expect(within(table).getByRole('columnheader', { name: 'Second factor' })).toBeInTheDocument();
    const [, ada, bob, cy] = within(table).getAllByRole('row');
    expect(ada).toHaveTextContent('Authenticator app');
    expect(ada).toHaveTextContent('2 passkeys');
    expect(bob).toHaveTextContent('1 passkey');
    expect(bob).not.toHaveTextContent('Authenticator app');
    expect(cy).toHaveTextContent('None');
  });
});
