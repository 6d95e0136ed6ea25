import type { TeamMembership, TeamMembershipList } from '@veriform/contracts';
import { schema } from '@veriform/db';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test-support/app.ts';
import { initialDataOf } from '../../test-support/outbox.ts';
import { join, newOwner, newPerson } from '../../test-support/teams.ts';

const t = useTestApp();

const notFound = { detail: 'Not found.', MainCode_: 'not_found' };
const permissionDenied = {
  detail: 'You are not permitted to perform that action.',
  MainCode_: 'permission_denied',
};
const lastOwner = { nonFieldErrors: ['An account must keep at least one owner.'], MainCode_: 'last_owner' };

describe('GET /api/memberships', () => {
  it('?accountId= : the whole team, oldest first, on one page, to any member', async () => {
    const owner = await newOwner(t.app, 'Team Co');
    const a = await join(t.app, owner, { canSearchData: true });
    const b = await join(t.app, owner, { role: 'owner' });
    for (const c of [owner.c, a.c, b.c]) {
      const response = await c.get(`/api/memberships?accountId=${owner.accountId}`);
      expect(response.statusCode).toBe(200);
      const list = response.json<TeamMembershipList>();
      expect(list).toMatchObject({ count: 3, pageNumber: 1, pageSize: 3 });
      expect(list.results.map((m) => m.id)).toEqual([owner.membership.id, a.membership.id, b.membership.id]);
    }
    const [first, second] = (
      await a.c.get(`/api/memberships?accountId=${owner.accountId}`)
    ).json<TeamMembershipList>().results;
    expect(first).toEqual({
      ...owner.membership,
      user: { id: owner.userId, name: 'Ada Lovelace', email: owner.email, uploadedProfileImage: null },
      created: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      mfa: { totp: false, passkeys: 0 },
    });
    expect(second).toMatchObject({
      role: 'member',
      canSearchData: true,
      canViewReports: false,
      user: { email: a.email },
    });
  });

  it('without accountId: the caller’s own memberships, newest first, in the team shape', async () => {
    const owner = await newOwner(t.app, 'One');
    const other = await newOwner(t.app, 'Two');
    const joined = await join(t.app, other);
    // `joined` is in Two; make them also owner of a new account.
    const third = (await joined.c.post('/api/accounts', { displayName: 'Three' })).json().membership;
    const list = (await joined.c.get('/api/memberships')).json<TeamMembershipList>();
    expect(list).toMatchObject({ count: 2, pageNumber: 1, pageSize: 2 });
    expect(list.results.map((m) => m.id)).toEqual([third.id, joined.membership.id]);
    expect(list.results.every((m) => m.user.id === joined.userId)).toBe(true);
    expect((await owner.c.get('/api/memberships')).json<TeamMembershipList>().count).toBe(1);
    const loner = await newPerson(t.app);
    expect((await loner.c.get('/api/memberships')).json()).toEqual({
      count: 0,
      pageNumber: 1,
      pageSize: 0,
      results: [],
    });
  });

  it('another account, an unknown account: 404; logged out: 401; junk: 400', async () => {
    const owner = await newOwner(t.app);
    const stranger = await newOwner(t.app);
    for (const id of [owner.accountId, 999_999]) {
      const response = await stranger.c.get(`/api/memberships?accountId=${id}`);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(notFound);
    }
    expect((await stranger.c.get('/api/memberships?accountId=abc')).statusCode).toBe(400);
    await stranger.c.post('/api/auth/logout');
    expect((await stranger.c.get(`/api/memberships?accountId=${stranger.accountId}`)).statusCode).toBe(401);
  });
});

describe('GET /api/memberships/{id}', () => {
  it('any member of that account sees any membership of it', async () => {
    const owner = await newOwner(t.app);
    const member = await join(t.app, owner);
    const response = await member.c.get(`/api/memberships/${owner.membership.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json<TeamMembership>()).toMatchObject({
      id: owner.membership.id,
      role: 'owner',
      user: { email: owner.email },
    });
  });
});

describe('role and permission changes', () => {
  it('owners promote, demote and toggle permissions; the answer is the team membership', async () => {
    const owner = await newOwner(t.app);
    const member = await join(t.app, owner);
    const url = `/api/memberships/${member.membership.id}`;

    const perms = await owner.c.post(`${url}/update-permissions`, {
      canSearchData: true,
      canViewReports: true,
    });
    expect(perms.statusCode).toBe(200);
    expect(perms.json<TeamMembership>()).toMatchObject({
      role: 'member',
      canSearchData: true,
      canViewReports: true,
      user: { id: member.userId },
    });

    const promoted = await owner.c.post(`${url}/update-role`, { role: 'owner' });
    expect(promoted.statusCode).toBe(200);
    expect(promoted.json<TeamMembership>().role).toBe('owner');
    // The change shows in the member's own session at once.
    expect((await member.c.post('/api/auth/refresh-me')).json().currentMembership.role).toBe('owner');

    const demoted = await owner.c.post(`${url}/update-role`, { role: 'member' });
    expect(demoted.json<TeamMembership>()).toMatchObject({
      role: 'member',
      canSearchData: true,
      canViewReports: true,
    });
  });

  it('members may not change roles or permissions, not even their own (403)', async () => {
    const owner = await newOwner(t.app);
    const member = await join(t.app, owner, { canSearchData: true, canViewReports: true });
    for (const id of [member.membership.id, owner.membership.id]) {
      for (const [path, body] of [
        ['update-role', { role: 'owner' }],
        ['update-permissions', { canSearchData: true, canViewReports: true }],
      ] as const) {
        const response = await member.c.post(`/api/memberships/${id}/${path}`, body);
        expect(response.statusCode).toBe(403);
        expect(response.json()).toEqual(permissionDenied);
      }
    }
    const mine = (await member.c.get(`/api/memberships/${member.membership.id}`)).json<TeamMembership>();
    expect(mine.role).toBe('member');
  });

  it('validates the bodies', async () => {
    const owner = await newOwner(t.app);
    const url = `/api/memberships/${owner.membership.id}`;
    expect((await owner.c.post(`${url}/update-role`, { role: 'admin' })).statusCode).toBe(400);
    expect((await owner.c.post(`${url}/update-permissions`, { canSearchData: 'yes' })).statusCode).toBe(400);
  });
});

describe('the last owner', () => {
  it('can be neither demoted, removed, nor leave; with a second owner, each can', async () => {
    const owner = await newOwner(t.app);
    const url = `/api/memberships/${owner.membership.id}`;
    for (const response of [
      await owner.c.post(`${url}/update-role`, { role: 'member' }),
      await owner.c.request({ method: 'DELETE', url }),
    ]) {
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(lastOwner);
    }
    // Promoting an owner to owner again is fine.
    expect((await owner.c.post(`${url}/update-role`, { role: 'owner' })).statusCode).toBe(200);

    const second = await join(t.app, owner, { role: 'owner' });
    expect((await second.c.post(`${url}/update-role`, { role: 'member' })).statusCode).toBe(200);
    // Now `second` is the only owner: they cannot leave, and the demoted one cannot remove them.
    const secondUrl = `/api/memberships/${second.membership.id}`;
    expect((await second.c.request({ method: 'DELETE', url: secondUrl })).json()).toEqual(lastOwner);
    expect((await owner.c.request({ method: 'DELETE', url: secondUrl })).json()).toEqual(permissionDenied);
  });

  it('two owners demoting each other at the same moment: one succeeds, one is refused', async () => {
    for (let round = 0; round < 5; round++) {
      const a = await newOwner(t.app);
      const b = await join(t.app, a, { role: 'owner' });
      const [ra, rb] = await Promise.all([
        a.c.post(`/api/memberships/${b.membership.id}/update-role`, { role: 'member' }),
        b.c.post(`/api/memberships/${a.membership.id}/update-role`, { role: 'member' }),
      ]);
      const [won, lost] = [ra, rb].sort((x, y) => x.statusCode - y.statusCode);
      expect(won?.statusCode).toBe(200);
      // The loser is either refused as the last owner or, once demoted, no longer allowed.
      expect(lost?.json()).toEqual(lost?.statusCode === 400 ? lastOwner : permissionDenied);
      const owners = (await a.c.get(`/api/memberships?accountId=${a.accountId}`))
        .json<TeamMembershipList>()
        .results.filter((m) => m.role === 'owner');
      expect(owners).toHaveLength(1);
    }
  });

  it('two owners removing each other at the same moment: one owner stays', async () => {
    for (let round = 0; round < 5; round++) {
      const a = await newOwner(t.app);
      const b = await join(t.app, a, { role: 'owner' });
      const results = await Promise.all([
        a.c.request({ method: 'DELETE', url: `/api/memberships/${b.membership.id}` }),
        b.c.request({ method: 'DELETE', url: `/api/memberships/${a.membership.id}` }),
      ]);
      const codes = results.map((r) => r.statusCode).sort();
      // One removal wins; the other finds its caller gone (404) or is refused as the last owner (400).
      expect(codes[0]).toBe(204);
      expect([400, 404]).toContain(codes[1]);
      const left = await t.db.db
        .select()
        .from(schema.memberships)
        .where(eq(schema.memberships.accountId, a.accountId));
      expect(left.filter((m) => m.role === 'owner')).toHaveLength(1);
    }
  });
});

describe('DELETE /api/memberships/{id}', () => {
  it('a member leaves (204); the account leaves their lists; their session falls back', async () => {
    const owner = await newOwner(t.app);
    const member = await join(t.app, owner);
    const own = await member.c.post('/api/accounts', { displayName: 'Mine' });
    const mine = own.json().membership;
    await member.c.post(`/api/memberships/${member.membership.id}/select`);
    const left = await member.c.request({
      method: 'DELETE',
      url: `/api/memberships/${member.membership.id}`,
    });
    expect(left.statusCode).toBe(204);
    expect(left.body).toBe('');
    const me = (await member.c.post('/api/auth/refresh-me')).json();
    expect(me.memberships).toEqual([mine]);
    expect(me.currentMembership).toEqual(mine);
    // The FK cleared the remembered membership of the session (ON DELETE SET NULL).
    const rows = await t.db.db
      .select({ current: schema.sessions.currentMembershipId })
      .from(schema.sessions)
      .where(eq(schema.sessions.userId, member.userId));
    expect(rows.map((r) => r.current)).toEqual([null]);
    expect((await member.c.get(`/api/memberships?accountId=${owner.accountId}`)).statusCode).toBe(404);
  });

  it('owners remove members; members cannot remove others (403)', async () => {
    const owner = await newOwner(t.app);
    const a = await join(t.app, owner);
    const b = await join(t.app, owner);
    const denied = await a.c.request({ method: 'DELETE', url: `/api/memberships/${b.membership.id}` });
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual(permissionDenied);
    expect(
      (await a.c.request({ method: 'DELETE', url: `/api/memberships/${owner.membership.id}` })).statusCode,
    ).toBe(403);
    expect(
      (await owner.c.request({ method: 'DELETE', url: `/api/memberships/${b.membership.id}` })).statusCode,
    ).toBe(204);
    const team = (
      await owner.c.get(`/api/memberships?accountId=${owner.accountId}`)
    ).json<TeamMembershipList>();
    expect(team.results.map((m) => m.id)).toEqual([owner.membership.id, a.membership.id]);
    expect((await b.c.post('/api/auth/refresh-me')).json()).toMatchObject({
      memberships: [],
      currentMembership: null,
    });
  });
});

describe('POST /api/memberships/{id}/select', () => {
  it('remembers the caller’s own membership for the session (answer, refresh-me, page)', async () => {
    const owner = await newOwner(t.app, 'Older');
    const newer = (await owner.c.post('/api/accounts', { displayName: 'Newer' })).json().membership;
    const response = await owner.c.post(`/api/memberships/${owner.membership.id}/select`, {});
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ currentMembership: owner.membership });
    const me = (await owner.c.post('/api/auth/refresh-me')).json();
    expect(me.currentMembership).toEqual(owner.membership);
    expect(me.memberships).toEqual([newer, owner.membership]);
    const page = initialDataOf((await owner.c.get('/dashboard/')).body);
    expect(page).toMatchObject({ currentMembership: owner.membership });
  });

  it('someone else’s membership, even in the same account: 404, nothing changes', async () => {
    const owner = await newOwner(t.app);
    const member = await join(t.app, owner);
    for (const id of [member.membership.id, 999_999, 'abc']) {
      const response = await owner.c.post(`/api/memberships/${id}/select`, {});
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(notFound);
    }
    expect((await owner.c.post('/api/auth/refresh-me')).json().currentMembership.id).toBe(
      owner.membership.id,
    );
  });

  it('the remembered membership is per session: another login starts from the first', async () => {
    const owner = await newOwner(t.app, 'Older');
    const newer = (await owner.c.post('/api/accounts', { displayName: 'Newer' })).json().membership;
    await owner.c.post(`/api/memberships/${owner.membership.id}/select`, {});
    const other = (await newPerson(t.app)).c;
    const login = await other.login(owner.email, owner.password);
    expect(login.json().currentMembership).toEqual(newer);
  });
});
