import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { teamTexts } from '@veriform/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createFakeServer,
  makeInitialData,
  makeInvitation,
  makeMembership,
  makeTeamMembership,
  makeUser,
  teamList,
} from '../../../test/fake-server';
import { renderApp } from '../../../test/render';
import { ownedCredentialsTexts } from './OwnedCredentialsModal';

const ada = makeUser();
const owner = makeMembership();
const member = makeMembership({ role: 'member', canSearchData: true, canViewReports: false });
const adaRow = makeTeamMembership({ id: 11 });
const bobRow = makeTeamMembership({
  id: 12,
  role: 'member',
  canSearchData: false,
  canViewReports: false,
  user: { id: 2, name: 'Bob Stone', email: 'bob@example.com' },
});
const signedIn = (membership = owner) =>
  makeInitialData({ user: ada, memberships: [membership], currentMembership: membership });

function serverWith(extra: Parameters<typeof createFakeServer>[0] = {}) {
  return createFakeServer({
    'GET /api/memberships': [200, teamList([adaRow, bobRow])],
    'GET /api/invitations': [200, teamList([makeInvitation()])],
    ...extra,
  });
}

afterEach(() => vi.unstubAllGlobals());

async function teamTable() {
  return screen.findByRole('table', { name: 'Team members' });
}

describe('Manage Team (owner)', () => {
  it('lists every membership with the controls, and the pending invitations', async () => {
    const server = serverWith();
    renderApp('/settings/manage-team', { initialData: signedIn(), server });
    const table = await teamTable();
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(within(table).getByText('bob@example.com')).toBeInTheDocument();
    expect(server.calls('GET /api/memberships')[0]?.url.searchParams.get('accountId')).toBe('21');

    expect(screen.getByRole('combobox', { name: 'Role for Bob Stone' })).toHaveValue('Member');
    expect(screen.getByRole('switch', { name: 'Can search data for Bob Stone' })).not.toBeChecked();
    expect(screen.getByRole('switch', { name: 'Can view reports for Bob Stone' })).toBeEnabled();
    // Owners have every permission: their switches are on and fixed.
    expect(screen.getByRole('switch', { name: 'Can search data for Ada Lovelace' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Can search data for Ada Lovelace' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Remove Bob Stone' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Remove Ada Lovelace' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Invite teammate' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Leave account' })).toBeInTheDocument();

    const invitations = await screen.findByRole('table', { name: 'Pending invitations' });
    expect(within(invitations).getByText('bob@example.com')).toBeInTheDocument();
    expect(
      within(invitations).getByRole('button', { name: 'Resend invitation to bob@example.com' }),
    ).toBeInTheDocument();
  });

  it('on a small screen: a card per member and per invitation, with the same controls', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      // Only the compact-layout query matches (below Mantine's md breakpoint).
      matches: query.startsWith('not all and (min-width'),
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }));
    renderApp('/settings/manage-team', { initialData: signedIn(), server: serverWith() });
    const team = await screen.findByRole('list', { name: 'Team members' });
    expect(screen.queryByRole('table', { name: 'Team members' })).toBeNull();
    const cards = within(team).getAllByRole('listitem');
    expect(cards).toHaveLength(2);
    const bob = cards[1] as HTMLElement;
    expect(within(bob).getByText('Bob Stone')).toBeInTheDocument();
    expect(within(bob).getByText('bob@example.com')).toBeInTheDocument();
    expect(within(bob).getByRole('combobox', { name: 'Role for Bob Stone' })).toHaveValue('Member');
    expect(within(bob).getByRole('switch', { name: 'Can view reports for Bob Stone' })).toBeEnabled();
    expect(within(bob).getByRole('button', { name: 'Remove Bob Stone' })).toBeInTheDocument();
    expect(within(cards[0] as HTMLElement).getByText('You')).toBeInTheDocument();

    const invitations = await screen.findByRole('list', { name: 'Pending invitations' });
    expect(within(invitations).getByText('bob@example.com')).toBeInTheDocument();
    expect(
      within(invitations).getByRole('button', { name: 'Revoke invitation to bob@example.com' }),
    ).toBeInTheDocument();
  });

  it('changes a permission', async () => {
    const user = userEvent.setup();
    const server = serverWith({
      'POST /api/memberships/12/update-permissions': [200, { ...bobRow, canViewReports: true }],
    });
    renderApp('/settings/manage-team', { initialData: signedIn(), server });
    await teamTable();
    await user.click(screen.getByRole('switch', { name: 'Can view reports for Bob Stone' }));
    await waitFor(() =>
      expect(screen.getByRole('switch', { name: 'Can view reports for Bob Stone' })).toBeChecked(),
    );
    expect(server.calls('POST /api/memberships/12/update-permissions')[0]?.body).toEqual({
      canSearchData: false,
      canViewReports: true,
    });
    expect(await screen.findByText('Permissions updated')).toBeInTheDocument();
  });

  it('changes a role; the last owner’s refusal is an error toast with the server’s text', async () => {
    const user = userEvent.setup();
    const server = serverWith({
      'POST /api/memberships/12/update-role': [200, { ...bobRow, role: 'owner' }],
      'POST /api/memberships/11/update-role': [
        400,
        { nonFieldErrors: [teamTexts.lastOwner], MainCode_: 'last_owner' },
      ],
      'GET /api/memberships/11/owned-credentials': [200, { apiKeys: [], webhookEndpoints: [] }],
    });
    renderApp('/settings/manage-team', { initialData: signedIn(), server });
    await teamTable();
    await user.click(screen.getByRole('combobox', { name: 'Role for Bob Stone' }));
    await user.click(await screen.findByRole('option', { name: 'Owner' }));
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'Role for Bob Stone' })).toHaveValue('Owner'),
    );
    expect(server.calls('POST /api/memberships/12/update-role')[0]?.body).toEqual({ role: 'owner' });

    await user.click(screen.getByRole('combobox', { name: 'Role for Ada Lovelace' }));
    await user.click(await screen.findByRole('option', { name: 'Member' }));
    // An owner made a member: first what it takes (here nothing), then the change.
    const dialog = await screen.findByRole('dialog', { name: 'Make Ada Lovelace a member?' });
    expect(await within(dialog).findByText(ownedCredentialsTexts.none('Ada Lovelace'))).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Make member' }));
    expect(await screen.findByText(teamTexts.lastOwner)).toBeInTheDocument();
    expect(screen.getByText('Failed to Update Role')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Role for Ada Lovelace' })).toHaveValue('Owner');
  });

  it('removes a member after confirming', async () => {
    const user = userEvent.setup();
    const server = serverWith({
      'DELETE /api/memberships/12': [204],
      'GET /api/memberships/12/owned-credentials': [200, { apiKeys: [], webhookEndpoints: [] }],
    });
    renderApp('/settings/manage-team', { initialData: signedIn(), server });
    const table = await teamTable();
    await user.click(screen.getByRole('button', { name: 'Remove Bob Stone' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove Bob Stone?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(server.calls('DELETE /api/memberships/12')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Remove Bob Stone' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Remove Bob Stone?' })).getByRole('button', {
        name: 'Remove',
      }),
    );
    await waitFor(() => expect(within(table).queryByText('bob@example.com')).not.toBeInTheDocument());
    expect(server.calls('DELETE /api/memberships/12')).toHaveLength(1);
  });

  it('removing or demoting an owner lists their keys and endpoints, each to keep (unticked); loading first', async () => {
    const user = userEvent.setup();
    const carolRow = makeTeamMembership({
      id: 13,
      role: 'owner',
      user: { id: 3, name: 'Carol Byrne', email: 'carol@example.com' },
    });
    let answer: (value: [number, unknown]) => void = () => undefined;
    const owned = {
      apiKeys: [
        { id: 71, name: 'CRM', prefix: 'vf_live_AbCd', mode: 'live' },
        { id: 72, name: 'Billing', prefix: 'vf_live_EfGh', mode: 'live' },
      ],
      webhookEndpoints: [{ id: 81, url: 'https://crm.example.com/hooks', description: 'CRM' }],
    };
    const server = serverWith({
      'GET /api/memberships': [200, teamList([adaRow, bobRow, carolRow])],
      'GET /api/memberships/13/owned-credentials': () =>
        new Promise<[number, unknown]>((resolve) => {
          answer = resolve;
        }),
      'DELETE /api/memberships/13': [204],
      'POST /api/memberships/13/update-role': [200, { ...carolRow, role: 'member' }],
    });
    renderApp('/settings/manage-team', { initialData: signedIn(), server });
    await teamTable();

    await user.click(screen.getByRole('button', { name: 'Remove Carol Byrne' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove Carol Byrne?' });
    expect(within(dialog).getByLabelText(ownedCredentialsTexts.loading)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Remove' })).toBeDisabled();
    answer([200, owned]);
    const keep = await within(dialog).findByRole('checkbox', { name: 'Keep CRM (vf_live_AbCd…)' });
    expect(keep).not.toBeChecked();
    expect(within(dialog).getByRole('checkbox', { name: 'Keep Billing (vf_live_EfGh…)' })).not.toBeChecked();
    expect(
      within(dialog).getByRole('checkbox', { name: 'Keep https://crm.example.com/hooks' }),
    ).not.toBeChecked();
    expect(within(dialog).getByText(ownedCredentialsTexts.some)).toBeInTheDocument();
    await user.click(keep);
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(server.calls('DELETE /api/memberships/13')).toHaveLength(1));
    expect(server.calls('DELETE /api/memberships/13')[0]?.body).toEqual({
      keepApiKeyIds: [71],
      keepWebhookEndpointIds: [],
    });
  });

  it('making an owner a member keeps what is ticked and sends the role with it', async () => {
    const user = userEvent.setup();
    const carolRow = makeTeamMembership({
      id: 13,
      role: 'owner',
      user: { id: 3, name: 'Carol Byrne', email: 'carol@example.com' },
    });
    const server = serverWith({
      'GET /api/memberships': [200, teamList([adaRow, bobRow, carolRow])],
      'GET /api/memberships/13/owned-credentials': [
        200,
        {
          apiKeys: [{ id: 71, name: 'CRM', prefix: 'vf_live_AbCd', mode: 'live' }],
          webhookEndpoints: [{ id: 81, url: 'https://crm.example.com/hooks', description: '' }],
        },
      ],
      'POST /api/memberships/13/update-role': [200, { ...carolRow, role: 'member' }],
    });
    renderApp('/settings/manage-team', { initialData: signedIn(), server });
    await teamTable();
    await user.click(screen.getByRole('combobox', { name: 'Role for Carol Byrne' }));
    await user.click(await screen.findByRole('option', { name: 'Member' }));
    const dialog = await screen.findByRole('dialog', { name: 'Make Carol Byrne a member?' });
    expect(server.calls('POST /api/memberships/13/update-role')).toHaveLength(0);
    await user.click(
      await within(dialog).findByRole('checkbox', { name: 'Keep https://crm.example.com/hooks' }),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Make member' }));
    await waitFor(() => expect(server.calls('POST /api/memberships/13/update-role')).toHaveLength(1));
    expect(server.calls('POST /api/memberships/13/update-role')[0]?.body).toEqual({
      role: 'member',
      keepApiKeyIds: [],
      keepWebhookEndpointIds: [81],
    });
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'Role for Carol Byrne' })).toHaveValue('Member'),
    );
  });

  it('invites: field errors beside the fields, then success toast and the new pending row', async () => {
    const user = userEvent.setup();
    let calls = 0;
    const server = serverWith({
      'GET /api/invitations': [200, teamList([])],
      'POST /api/invitations': () => {
        calls += 1;
        return calls === 1
          ? [400, { email: [teamTexts.alreadyMember], MainCode_: 'validation_error' }]
          : [200, makeInvitation({ id: 32, email: 'carol@example.com', canSearchData: true })];
      },
    });
    renderApp('/settings/manage-team', { initialData: signedIn(), server });
    expect(await screen.findByText('No pending invitations.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Invite teammate' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invite a teammate' });

    await user.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    expect(await within(dialog).findByText('Required')).toBeInTheDocument();
    expect(calls).toBe(0);

    await user.type(within(dialog).getByLabelText(/^Email/), 'bob@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    expect(await within(dialog).findByText(teamTexts.alreadyMember)).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/^Email/)).toHaveAttribute('aria-invalid', 'true');

    await user.clear(within(dialog).getByLabelText(/^Email/));
    await user.type(within(dialog).getByLabelText(/^Email/), 'carol@example.com');
    await user.click(within(dialog).getByRole('checkbox', { name: /Can search data/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText('Invitation sent')).toBeInTheDocument();
    expect(screen.getByText('Sent to carol@example.com.')).toBeInTheDocument();
    expect(server.calls('POST /api/invitations')[1]?.body).toEqual({
      accountId: 21,
      email: 'carol@example.com',
      role: 'member',
      canSearchData: true,
      canViewReports: false,
    });
    const invitations = await screen.findByRole('table', { name: 'Pending invitations' });
    expect(within(invitations).getByText('carol@example.com')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('hides the permission boxes when inviting an owner', async () => {
    const user = userEvent.setup();
    renderApp('/settings/manage-team', { initialData: signedIn(), server: serverWith() });
    await user.click(await screen.findByRole('button', { name: 'Invite teammate' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invite a teammate' });
    expect(within(dialog).getByRole('checkbox', { name: /Can view reports/ })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('combobox', { name: /^Role/ }));
    await user.click(await screen.findByRole('option', { name: 'Owner' }));
    expect(within(dialog).queryByRole('checkbox', { name: /Can view reports/ })).not.toBeInTheDocument();
  });

  it('resends and revokes invitations', async () => {
    const user = userEvent.setup();
    const server = serverWith({
      'POST /api/invitations/31/resend': [200, makeInvitation()],
      'DELETE /api/invitations/31': [204],
    });
    renderApp('/settings/manage-team', { initialData: signedIn(), server });
    const invitations = await screen.findByRole('table', { name: 'Pending invitations' });
    await user.click(
      within(invitations).getByRole('button', { name: 'Resend invitation to bob@example.com' }),
    );
    expect(await screen.findByText('Invitation resent')).toBeInTheDocument();

    await user.click(
      within(invitations).getByRole('button', { name: 'Revoke invitation to bob@example.com' }),
    );
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('Invitation revoked')).toBeInTheDocument();
    expect(server.calls('DELETE /api/invitations/31')).toHaveLength(1);
    expect(await screen.findByText('No pending invitations.')).toBeInTheDocument();
  });

  it('the last owner’s leaving is refused with the server’s text', async () => {
    const user = userEvent.setup();
    const server = serverWith({
      'DELETE /api/memberships/11': [400, { nonFieldErrors: [teamTexts.lastOwner], MainCode_: 'last_owner' }],
      'GET /api/memberships/11/owned-credentials': [200, { apiKeys: [], webhookEndpoints: [] }],
    });
    renderApp('/settings/manage-team', { initialData: signedIn(), server });
    await user.click(await screen.findByRole('button', { name: 'Leave account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Leave Acme Corp?' });
    expect(await within(dialog).findByText(ownedCredentialsTexts.noneOfYours)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Leave' }));
    expect(await screen.findByText(teamTexts.lastOwner)).toBeInTheDocument();
  });

  it('an owner leaving is shown their keys and endpoints and may keep some', async () => {
    const user = userEvent.setup();
    const server = serverWith({
      'DELETE /api/memberships/11': [204],
      'GET /api/memberships/11/owned-credentials': [
        200,
        {
          apiKeys: [{ id: 71, name: 'CRM', prefix: 'vf_live_AbCd', mode: 'live' }],
          webhookEndpoints: [{ id: 81, url: 'https://crm.example.com/hooks', description: '' }],
        },
      ],
    });
    renderApp('/settings/manage-team', { initialData: signedIn(), server });
    await user.click(await screen.findByRole('button', { name: 'Leave account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Leave Acme Corp?' });
    expect(await within(dialog).findByText(ownedCredentialsTexts.someOfYours)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('checkbox', { name: 'Keep CRM (vf_live_AbCd…)' }));
    await user.click(within(dialog).getByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(server.calls('DELETE /api/memberships/11')).toHaveLength(1));
    expect(server.calls('DELETE /api/memberships/11')[0]?.body).toEqual({
      keepApiKeyIds: [71],
      keepWebhookEndpointIds: [],
    });
  });
});

describe('Manage Team (member)', () => {
  it('shows the table read-only, no invitations, and Leave account', async () => {
    const server = serverWith();
    renderApp('/settings/manage-team', { initialData: signedIn(member), server });
    const table = await teamTable();
    expect(within(table).getByText('bob@example.com')).toBeInTheDocument();
    expect(within(table).getAllByText('Owner').length).toBeGreaterThan(0);
    expect(screen.queryByRole('combobox', { name: /Role for/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('switch')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Remove/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Invite teammate' })).not.toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Pending invitations' })).not.toBeInTheDocument();
    expect(server.calls('GET /api/invitations')).toHaveLength(0);
    expect(screen.getByRole('button', { name: 'Leave account' })).toBeInTheDocument();
  });

  it('leaves: the next membership becomes current, the server is told', async () => {
    const user = userEvent.setup();
    const other = makeMembership({
      id: 13,
      account: { id: 23, displayName: 'Beta Ltd', uploadedProfileImage: null },
    });
    const server = serverWith({
      'DELETE /api/memberships/11': [204],
      'POST /api/memberships/13/select': [200, { currentMembership: other }],
    });
    const { router, services } = renderApp('/settings/manage-team', {
      initialData: makeInitialData({ user: ada, memberships: [member, other], currentMembership: member }),
      server,
    });
    await user.click(await screen.findByRole('button', { name: 'Leave account' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Leave Acme Corp?' })).getByRole('button', {
        name: 'Leave',
      }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings/my-account'));
    expect(services.session.get().memberships.map((m) => m.id)).toEqual([13]);
    expect(services.session.get().currentMembership?.id).toBe(13);
    expect(server.calls('POST /api/memberships/13/select')).toHaveLength(1);
    expect(window.sessionStorage.getItem('currentMembership:1')).toBe('13');
  });

  it('leaving the only account leads to creating a company', async () => {
    const user = userEvent.setup();
    const server = serverWith({ 'DELETE /api/memberships/11': [204] });
    const { router } = renderApp('/settings/manage-team', { initialData: signedIn(member), server });
    await user.click(await screen.findByRole('button', { name: 'Leave account' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Leave Acme Corp?' })).getByRole('button', {
        name: 'Leave',
      }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/signup/complete'));
  });

  it('a removed user: the team answers 404, the memberships are re-read and the account is gone', async () => {
    const server = createFakeServer({
      'GET /api/memberships': ({ url }) =>
        url.searchParams.has('accountId') ? [404, { detail: 'Not found.' }] : [200, teamList([])],
    });
    const { services } = renderApp('/settings/manage-team', { initialData: signedIn(member), server });
    await waitFor(() => expect(services.session.get().memberships).toEqual([]));
    expect(services.session.get().currentMembership).toBeNull();
  });
});
