import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { invitationErrorTexts, invitationPages, teamTexts } from '@veriform/contracts';
import { describe, expect, it } from 'vitest';
import { ownMembershipsQueryKey } from '../features/memberships/api';
import {
  authResponse,
  createFakeServer,
  makeFollowInvitation,
  makeInitialData,
  makeMembership,
  makeTeamMembership,
  makeUser,
  teamList,
} from '../test/fake-server';
import { renderApp } from '../test/render';

const ada = makeUser();
const acme = makeMembership();
const beta = makeMembership({
  id: 12,
  role: 'member',
  canSearchData: false,
  canViewReports: false,
  account: { id: 22, displayName: 'Beta Ltd', uploadedProfileImage: null },
});
const signedIn = (memberships = [acme], user = ada) =>
  makeInitialData({ user, memberships, currentMembership: memberships[0] ?? null });

describe('/auth/signup/complete: create your company', () => {
  it('creates the company, makes it first and current, and goes to the dashboard', async () => {
    const user = userEvent.setup();
    const created = makeMembership({
      id: 15,
      account: { id: 25, displayName: 'Zeta Inc', uploadedProfileImage: null },
    });
    const server = createFakeServer({
      'POST /api/accounts': [
        200,
        { membership: created, justCreatedAccount: { membershipCreated: created } },
      ],
      'POST /api/memberships/15/select': [200, { currentMembership: created }],
    });
    const { router, services } = renderApp('/', { initialData: signedIn([]), server });
    expect(await screen.findByRole('heading', { name: 'Create your company' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth/signup/complete');

    await user.click(screen.getByRole('button', { name: 'Create company' }));
    expect(await screen.findByText('Required')).toBeInTheDocument();
    expect(server.calls('POST /api/accounts')).toHaveLength(0);

    await user.type(screen.getByLabelText(/^Company name/), '  Zeta Inc ');
    await user.click(screen.getByRole('button', { name: 'Create company' }));
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard/');
    expect(server.calls('POST /api/accounts')[0]?.body).toEqual({ displayName: 'Zeta Inc' });
    expect(server.calls('POST /api/memberships/15/select')).toHaveLength(1);
    expect(services.session.get().currentMembership?.id).toBe(15);
    expect(window.sessionStorage.getItem('currentMembership:1')).toBe('15');
    expect(window.localStorage.getItem('currentMembership')).toBe('15');
  });

  it('adds another company in front of the existing ones', async () => {
    const user = userEvent.setup();
    const created = makeMembership({
      id: 15,
      account: { id: 25, displayName: 'Zeta Inc', uploadedProfileImage: null },
    });
    const server = createFakeServer({
      'POST /api/accounts': [
        200,
        { membership: created, justCreatedAccount: { membershipCreated: created } },
      ],
      'POST /api/memberships/15/select': [200, { currentMembership: created }],
    });
    const { services } = renderApp('/auth/signup/complete', { initialData: signedIn([acme, beta]), server });
    await user.type(await screen.findByLabelText(/^Company name/), 'Zeta Inc');
    expect(screen.getByRole('link', { name: 'Cancel' })).toHaveAttribute('href', '/');
    await user.click(screen.getByRole('button', { name: 'Create company' }));
    await waitFor(() =>
      expect(services.session.get().memberships.map((m) => m.id)).toEqual([15, acme.id, beta.id]),
    );
  });

  it('shows the server’s field error beside the name', async () => {
    const user = userEvent.setup();
    const server = createFakeServer({
      'POST /api/accounts': [400, { displayName: ['Too long.'], MainCode_: 'validation_error' }],
    });
    renderApp('/auth/signup/complete', { initialData: signedIn([]), server });
    await user.type(await screen.findByLabelText(/^Company name/), 'Zeta');
    await user.click(screen.getByRole('button', { name: 'Create company' }));
    expect(await screen.findByText('Too long.')).toBeInTheDocument();
  });

  it('is only for signed-in users', async () => {
    const { router } = renderApp('/auth/signup/complete');
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login'));
  });
});

describe('account menu', () => {
  it('expands the accounts and switches: storage, select call, data reloaded', async () => {
    const user = userEvent.setup();
    const server = createFakeServer({
      'POST /api/memberships/12/select': [200, { currentMembership: beta }],
    });
    const { services } = renderApp('/forms/', { initialData: signedIn([acme, beta]), server });
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
    expect(within(nav).getByRole('link', { name: 'Dashboard' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: /^Account menu/ }));
    const current = await screen.findByRole('menuitem', { name: 'Current company: Acme Corp' });
    expect(current).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('menuitem', { name: 'Beta Ltd' })).not.toBeInTheDocument();

    await user.click(current);
    expect(current).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('menuitem', { name: 'Acme Corp' })).toHaveAttribute('aria-current', 'true');
    await user.click(screen.getByRole('menuitem', { name: 'Beta Ltd' }));

    await waitFor(() => expect(server.calls('POST /api/memberships/12/select')).toHaveLength(1));
    expect(server.calls('POST /api/memberships/12/select')[0]?.body).toEqual({});
    expect(services.session.get().currentMembership?.id).toBe(12);
    expect(window.sessionStorage.getItem('currentMembership:1')).toBe('12');
    expect(window.sessionStorage.getItem('currentMembership')).toBe('12');
    expect(window.localStorage.getItem('currentMembership:1')).toBe('12');
    expect(window.localStorage.getItem('currentMembership')).toBe('12');
    // The sidebar follows the new membership's rights.
    await waitFor(() =>
      expect(within(nav).queryByRole('link', { name: 'Dashboard' })).not.toBeInTheDocument(),
    );

    await user.click(screen.getByRole('button', { name: /^Account menu/ }));
    expect(await screen.findByRole('menuitem', { name: 'Current company: Beta Ltd' })).toBeInTheDocument();
  });

  it('without a membership offers to create a company', async () => {
    const user = userEvent.setup();
    renderApp('/settings/my-account', { initialData: signedIn([]) });
    await user.click(await screen.findByRole('button', { name: /^Account menu/ }));
    expect(await screen.findByRole('menuitem', { name: 'Create company' })).toHaveAttribute(
      'href',
      '/auth/signup/complete',
    );
  });
});

describe('page data right after creating an account', () => {
  it('puts extra.justCreatedAccount first and makes it current', async () => {
    const created = makeMembership({
      id: 15,
      account: { id: 25, displayName: 'Zeta Inc', uploadedProfileImage: null },
    });
    window.sessionStorage.setItem('currentMembership:1', String(acme.id));
    const { services } = renderApp('/forms/', {
      initialData: {
        ...signedIn([acme, created]),
        extra: { justCreatedAccount: { membershipCreated: created } },
      },
    });
    await screen.findByRole('heading', { name: 'Forms' });
    expect(services.session.get().memberships.map((m) => m.id)).toEqual([15, acme.id]);
    expect(services.session.get().currentMembership?.id).toBe(15);
    expect(window.sessionStorage.getItem('currentMembership:1')).toBe('15');
  });
});

describe('memberships kept in step with the server', () => {
  it('a removal by an owner: the next re-read drops the account and the next one becomes current', async () => {
    const server = createFakeServer({
      // The server's answer: team rows, each the membership with its person.
      'GET /api/memberships': [200, teamList([makeTeamMembership(beta)])],
      'POST /api/memberships/12/select': [200, { currentMembership: beta }],
    });
    const { services } = renderApp('/forms/', { initialData: signedIn([acme, beta]), server });
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
    expect(within(nav).getByRole('link', { name: 'Dashboard' })).toBeInTheDocument();
    // As a window focus after a minute would.
    await services.queryClient.invalidateQueries({ queryKey: ownMembershipsQueryKey });
    await waitFor(() => expect(services.session.get().currentMembership?.id).toBe(12));
    expect(services.session.get().memberships.map((m) => m.id)).toEqual([12]);
    expect(server.calls('POST /api/memberships/12/select')).toHaveLength(1);
    expect(window.localStorage.getItem('currentMembership:1')).toBe('12');
    await waitFor(() =>
      expect(within(nav).queryByRole('link', { name: 'Dashboard' })).not.toBeInTheDocument(),
    );
  });
});

describe('pages that need a permission', () => {
  it('show the 403 screen to a member without it', async () => {
    renderApp('/dashboard/', { initialData: signedIn([beta]) });
    expect(await screen.findByText('Sorry, you do not have access to this page.')).toBeInTheDocument();
  });
  it('activity log too', async () => {
    renderApp('/activity-log/', { initialData: signedIn([beta]) });
    expect(await screen.findByText('Sorry, you do not have access to this page.')).toBeInTheDocument();
  });
});

describe('/follow-invitation/', () => {
  const invitation = makeFollowInvitation();
  const withInvitation = (over = {}, base = makeInitialData()) =>
    ({ ...base, extra: { followInvitation: makeFollowInvitation(over) } }) as ReturnType<
      typeof makeInitialData
    >;

  it('goes to the error page without invitation data', async () => {
    const { router } = renderApp(`${invitationPages.follow}?key=abc`);
    expect(await screen.findByRole('heading', { name: "This invitation can't be used" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/follow-invitation/error');
  });

  it('goes to the error page with the server’s message when the invitation has an error', async () => {
    const { router } = renderApp(`${invitationPages.follow}?key=abc`, {
      initialData: makeInitialData({
        extra: {
          followInvitation: { hasError: true },
          followInvitationError: { code: 'revoked', message: invitationErrorTexts.revoked },
        },
      }),
    });
    expect(await screen.findByText(invitationErrorTexts.revoked)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/follow-invitation/error');
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/auth/login');
    expect(screen.getByRole('link', { name: 'Go to home' })).toHaveAttribute('href', '/');
  });

  it('anonymous, new address: says who invited whom and links to sign up', async () => {
    renderApp(`${invitationPages.follow}?key=inv-key-1`, { initialData: withInvitation() });
    expect(await screen.findByRole('heading', { name: 'Join Acme Corp' })).toBeInTheDocument();
    expect(screen.getByText('Ada Lovelace invited you to join Acme Corp as a member.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign up to accept' })).toHaveAttribute(
      'href',
      `${invitationPages.signup}?key=inv-key-1`,
    );
    expect(screen.queryByRole('link', { name: 'Log in to accept' })).not.toBeInTheDocument();
  });

  it('anonymous, known address: links to log in', async () => {
    renderApp(`${invitationPages.follow}?key=inv-key-1`, {
      initialData: withInvitation({ userExists: true, role: 'owner' }),
    });
    expect(
      await screen.findByText('Ada Lovelace invited you to join Acme Corp as an owner.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Log in to accept' })).toHaveAttribute(
      'href',
      `${invitationPages.login}?key=inv-key-1`,
    );
  });

  it('logged in with the invited address: accepts, the membership becomes current, into the app', async () => {
    const user = userEvent.setup();
    const bob = makeUser({ id: 2, name: 'Bob Stone', email: 'Bob@Example.com' });
    const joined = makeMembership({ id: 40, role: 'member', canSearchData: true, canViewReports: false });
    const server = createFakeServer({
      'POST /api/invitations/accept': [200, { membership: joined }],
      'POST /api/memberships/40/select': [200, { currentMembership: joined }],
      'POST /api/auth/refresh-me': [200, authResponse(bob, [joined, beta])],
    });
    const { router, services } = renderApp(`${invitationPages.follow}?key=inv-key-1`, {
      initialData: withInvitation({}, signedIn([beta], bob)),
      server,
    });
    await user.click(await screen.findByRole('button', { name: 'Accept invitation' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings/my-account'));
    expect(server.calls('POST /api/invitations/accept')[0]?.body).toEqual({ key: invitation.key });
    expect(server.calls('POST /api/memberships/40/select')).toHaveLength(1);
    expect(services.session.get().memberships.map((m) => m.id)).toEqual([40, beta.id]);
    expect(services.session.get().currentMembership?.id).toBe(40);
    expect(window.localStorage.getItem('currentMembership:2')).toBe('40');
  });

  it('shows the server’s refusal', async () => {
    const user = userEvent.setup();
    const bob = makeUser({ id: 2, email: 'bob@example.com' });
    const server = createFakeServer({
      'POST /api/invitations/accept': [400, { nonFieldErrors: [invitationErrorTexts.expired] }],
    });
    renderApp(`${invitationPages.follow}?key=inv-key-1`, {
      initialData: withInvitation({}, signedIn([], bob)),
      server,
    });
    await user.click(await screen.findByRole('button', { name: 'Accept invitation' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(invitationErrorTexts.expired);
  });

  it('logged in with another address: explains and offers to log out', async () => {
    const user = userEvent.setup();
    const server = createFakeServer({
      'POST /api/auth/logout': [200, authResponse(makeInitialData().user)],
    });
    renderApp(`${invitationPages.follow}?key=inv-key-1`, {
      initialData: withInvitation({}, signedIn()),
      server,
    });
    expect(
      await screen.findByText(teamTexts.wrongInvitee('bob@example.com'), { exact: false }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Accept invitation' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Log out' }));
    expect(await screen.findByRole('link', { name: 'Sign up to accept' })).toBeInTheDocument();
  });

  it('the error page has a generic text when the page data has none', async () => {
    renderApp('/follow-invitation/error');
    expect(await screen.findByText(/This invitation link is not valid any more/)).toBeInTheDocument();
  });
});

describe('/auth/signup/from-invitation and /auth/login/from-invitation', () => {
  const withInvitation = (over = {}) =>
    makeInitialData({ extra: { followInvitation: makeFollowInvitation(over) } });

  it.each([`${invitationPages.signup}?key=x`, `${invitationPages.login}?key=x`])(
    '%s without an invitation goes to the error page',
    async (path) => {
      const { router } = renderApp(path, {
        initialData: makeInitialData({ extra: { followInvitation: { hasError: true } } }),
      });
      await waitFor(() => expect(router.state.location.pathname).toBe('/follow-invitation/error'));
    },
  );

  it('signs up with the invited address (read-only), then accepts and goes in', async () => {
    const user = userEvent.setup();
    const bob = makeUser({ id: 2, name: 'Bob Stone', email: 'bob@example.com' });
    const joined = makeMembership({ id: 40, role: 'member', canSearchData: false, canViewReports: false });
    const server = createFakeServer({
      'POST /api/auth/signup': [
        200,
        authResponse(makeUser({ ...bob, emailIsVerified: false, emailVerifiedAsOf: null })),
      ],
      'POST /api/invitations/accept': [200, { membership: joined }],
      'POST /api/memberships/40/select': [200, { currentMembership: joined }],
      'POST /api/auth/refresh-me': [200, authResponse(bob, [joined])],
    });
    const { router, services } = renderApp(`${invitationPages.signup}?key=inv-key-1`, {
      initialData: withInvitation(),
      server,
    });
    const email = await screen.findByLabelText(/^Email/);
    expect(email).toHaveValue('bob@example.com');
    expect(email).toHaveAttribute('readonly');
    await user.type(screen.getByLabelText(/^First name/), 'Bob');
    await user.type(screen.getByLabelText(/^Last name/), 'Stone');
    await user.type(screen.getByLabelText(/^Password/, { selector: 'input' }), 'analytical1!');
    await user.type(screen.getByLabelText(/^Confirm password/), 'analytical1!');
    await user.click(screen.getByRole('button', { name: 'Sign up' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/settings/my-account'));
    expect(server.calls('POST /api/auth/signup')[0]?.body).toMatchObject({ email: 'bob@example.com' });
    expect(server.calls('POST /api/invitations/accept')[0]?.body).toEqual({ key: 'inv-key-1' });
    expect(services.session.get().currentMembership?.id).toBe(40);
    expect(services.session.get().user.emailIsVerified).toBe(true);
  });

  it('logs in with the invited address filled in, then accepts', async () => {
    const user = userEvent.setup();
    const bob = makeUser({ id: 2, email: 'bob@example.com' });
    const joined = makeMembership({ id: 40 });
    const server = createFakeServer({
      'POST /api/auth/login': [200, authResponse(bob, [])],
      'POST /api/invitations/accept': [200, { membership: joined }],
      'POST /api/memberships/40/select': [200, { currentMembership: joined }],
      'POST /api/auth/refresh-me': [200, authResponse(bob, [joined])],
    });
    const { router } = renderApp(`${invitationPages.login}?key=inv-key-1`, {
      initialData: withInvitation({ userExists: true }),
      server,
    });
    expect(await screen.findByLabelText(/^Email/)).toHaveValue('bob@example.com');
    await user.type(screen.getByLabelText(/^Password/, { selector: 'input' }), 'analytical1!');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings/my-account'));
    expect(server.calls('POST /api/invitations/accept')).toHaveLength(1);
  });

  it('when accepting fails after logging in, says why and shows the invitation page', async () => {
    const user = userEvent.setup();
    const carol = makeUser({ id: 3, email: 'carol@example.com' });
    const server = createFakeServer({
      'POST /api/auth/login': [200, authResponse(carol, [])],
      'POST /api/invitations/accept': [400, { nonFieldErrors: [teamTexts.wrongInvitee('bob@example.com')] }],
    });
    const { router } = renderApp(`${invitationPages.login}?key=inv-key-1`, {
      initialData: withInvitation({ userExists: true }),
      server,
    });
    const email = await screen.findByLabelText(/^Email/);
    await user.clear(email);
    await user.type(email, 'carol@example.com');
    await user.type(screen.getByLabelText(/^Password/, { selector: 'input' }), 'analytical1!');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(invitationPages.follow));
    expect(await screen.findByText('Could not accept the invitation')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Log out' })).toBeInTheDocument();
  });
});
