import type { Invitation, InvitationList, Membership } from '@veriform/contracts';
import { schema } from '@veriform/db';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { TEST_PUBLIC_URL, useTestApp } from '../../test-support/app.ts';
import { newSignup } from '../../test-support/client.ts';
import { DAY, HOUR } from '../../test-support/clock.ts';
import { initialDataOf, latestInvitationKey, outboxFor } from '../../test-support/outbox.ts';
import { invite, join, newOwner, newPerson, type Owner } from '../../test-support/teams.ts';

const t = useTestApp();

const notFound = { detail: 'Not found.', MainCode_: 'not_found' };
const permissionDenied = {
  detail: 'You are not permitted to perform that action.',
  MainCode_: 'permission_denied',
};
const texts = {
  missing: 'This invitation link is incomplete. Open the link from the invitation e-mail again.',
  not_found: 'This invitation link is not valid. Ask the person who invited you to send a new one.',
  expired: 'This invitation has expired. Ask the person who invited you to send a new one.',
  revoked: 'This invitation was withdrawn. Ask the person who invited you if you should still join.',
  accepted: 'This invitation has already been used. Log in to reach the account.',
} as const;
type Code = keyof typeof texts;
const acceptError = (code: Code) => ({ nonFieldErrors: [texts[code]], MainCode_: `invitation_${code}` });

const freshEmail = () => newSignup().email;
const unknownKey = 'A'.repeat(43);

async function invited(owner: Owner, options: Parameters<typeof invite>[3] = {}, email = freshEmail()) {
  const response = await invite(owner, owner.accountId, email, options);
  expect(response.statusCode).toBe(201);
  return { invitation: response.json<Invitation>(), key: await latestInvitationKey(t.app, email), email };
}

async function pageExtra(path: string) {
  const page = await t.app.inject({ method: 'GET', url: path });
  expect(page.statusCode).toBe(200);
  return { page, extra: (initialDataOf(page.body) as { extra: Record<string, unknown> }).extra };
}

describe('POST /api/invitations', () => {
  it('creates a pending invitation and e-mails a link to PUBLIC_URL/follow-invitation/?key=', async () => {
    const owner = await newOwner(t.app, 'Globex');
    const email = freshEmail();
    const response = await invite(owner, owner.accountId, `  ${email.toUpperCase()} `, {
      role: 'member',
      canViewReports: true,
    });
    expect(response.statusCode).toBe(201);
    const invitation = response.json<Invitation>();
    const now = t.clock.now().getTime();
    expect(invitation).toEqual({
      id: expect.any(Number),
      email,
      role: 'member',
      canSearchData: false,
      canViewReports: true,
      account: { id: owner.accountId, displayName: 'Globex', uploadedProfileImage: null },
      invitedBy: { name: 'Ada Lovelace', email: owner.email },
      created: new Date(now).toISOString(),
      expiresAt: new Date(now + 7 * DAY).toISOString(),
      lastSentAt: new Date(now).toISOString(),
      status: 'pending',
    });

    const [message] = await outboxFor(t.app, email);
    expect(message?.subject).toBe('You are invited to join Globex on Veriform');
    expect(message?.text).toContain(
      `Ada Lovelace (${owner.email}) invited you to join Globex on Veriform as a member.`,
    );
    expect(message?.text).toContain('The invitation expires in 7 days');
    expect(message?.text).toMatch(new RegExp(`${TEST_PUBLIC_URL}/follow-invitation/\\?key=[\\w-]{43}\\n`));

    // Only the key's SHA-256 is stored.
    const key = await latestInvitationKey(t.app, email);
    const [row] = await t.db.db
      .select()
      .from(schema.invitations)
      .where(eq(schema.invitations.id, invitation.id));
    expect(row?.keyHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(key);
  });

  it('refuses an address that is already a member, or already has a pending invitation (any case)', async () => {
    const owner = await newOwner(t.app);
    const member = await join(t.app, owner);
    for (const email of [owner.email, member.email.toUpperCase()]) {
      const response = await invite(owner, owner.accountId, email);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        email: ['That person is already a member of this account.'],
        MainCode_: 'validation_error',
      });
    }
    const { email } = await invited(owner);
    const again = await invite(owner, owner.accountId, email.toUpperCase(), { role: 'owner' });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({
      email: ['That address already has a pending invitation. Resend it instead.'],
      MainCode_: 'validation_error',
    });
    // Another account may invite the same address.
    const other = await newOwner(t.app);
    expect((await invite(other, other.accountId, email)).statusCode).toBe(201);
  });

  it('an expired invitation does not block a new one: the new one supersedes it', async () => {
    const owner = await newOwner(t.app);
    const old = await invited(owner);
    t.clock.advance(7 * DAY + 1000);
    const renewed = await invite(owner, owner.accountId, old.email);
    expect(renewed.statusCode).toBe(201);
    const { extra } = await pageExtra(`/follow-invitation/?key=${old.key}`);
    expect(extra.followInvitationError).toEqual({ code: 'revoked', message: texts.revoked });
    const list = (await owner.c.get(`/api/invitations?accountId=${owner.accountId}`)).json<InvitationList>();
    expect(list.results.map((i) => i.id)).toEqual([renewed.json<Invitation>().id]);
  });

  it('validates the body', async () => {
    const owner = await newOwner(t.app);
    const response = await owner.c.post('/api/invitations', {
      accountId: owner.accountId,
      email: 'nope',
      role: 'boss',
    });
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json()).sort()).toEqual(['MainCode_', 'email', 'role']);
  });

  it('is limited to 50 invitation e-mails a day per account', async () => {
    const owner = await newOwner(t.app);
    for (let i = 0; i < 50; i++)
      expect((await invite(owner, owner.accountId, freshEmail())).statusCode).toBe(201);
    const refused = await invite(owner, owner.accountId, freshEmail());
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    const list = (await owner.c.get(`/api/invitations?accountId=${owner.accountId}`)).json<InvitationList>();
    expect(list.count).toBe(50);
    t.clock.advance(DAY + 1000);
    expect((await invite(owner, owner.accountId, freshEmail())).statusCode).toBe(201);
  });
});

describe('GET /api/invitations?accountId=', () => {
  it('open invitations newest first (pending and expired; not accepted or revoked), all on one page', async () => {
    const owner = await newOwner(t.app);
    const first = await invited(owner);
    t.clock.advance(1000);
    const second = await invited(owner, { role: 'owner' });
    t.clock.advance(1000);
    const third = await invited(owner);
    t.clock.advance(1000);
    await owner.c.request({ method: 'DELETE', url: `/api/invitations/${third.invitation.id}` });
    const joiner = await newPerson(t.app, second.email);
    expect((await joiner.c.post('/api/invitations/accept', { key: second.key })).statusCode).toBe(200);
    const fourth = await invited(owner);

    const list = (await owner.c.get(`/api/invitations?accountId=${owner.accountId}`)).json<InvitationList>();
    expect(list).toMatchObject({ count: 2, pageNumber: 1, pageSize: 2 });
    expect(list.results.map((i) => [i.id, i.status])).toEqual([
      [fourth.invitation.id, 'pending'],
      [first.invitation.id, 'pending'],
    ]);
    t.clock.advance(7 * DAY);
    const later = (await owner.c.get(`/api/invitations?accountId=${owner.accountId}`)).json<InvitationList>();
    expect(later.results.map((i) => i.status)).toEqual(['expired', 'expired']);
  });
});

describe('what members without manageTeam may do', () => {
  it('nothing with invitations: list, create, resend, revoke answer 403 with the spec text', async () => {
    const owner = await newOwner(t.app);
    const member = await join(t.app, owner, { canSearchData: true, canViewReports: true });
    const { invitation } = await invited(owner);
    for (const response of [
      await member.c.get(`/api/invitations?accountId=${owner.accountId}`),
      await invite(member, owner.accountId, freshEmail()),
      await member.c.post(`/api/invitations/${invitation.id}/resend`),
      await member.c.request({ method: 'DELETE', url: `/api/invitations/${invitation.id}` }),
    ]) {
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual(permissionDenied);
    }
  });
});

describe('the follow-invitation pages (initial page data)', () => {
  it('a valid key: the invitation’s public face on each of the three pages, no referrer, nothing consumed', async () => {
    const owner = await newOwner(t.app, 'Initech');
    const { key, email, invitation } = await invited(owner, { role: 'owner' });
    const expected = {
      hasError: false,
      key,
      email,
      role: 'owner',
      accountName: 'Initech',
      invitedByName: 'Ada Lovelace',
      expiresAt: invitation.expiresAt,
      userExists: false,
    };
    for (const path of [
      '/follow-invitation/',
      '/follow-invitation',
      '/auth/signup/from-invitation',
      '/auth/signup/from-invitation/',
      '/auth/login/from-invitation',
    ]) {
      const { page, extra } = await pageExtra(`${path}?key=${key}`);
      expect(extra).toEqual({ signaling: { immediatelyRedirectTo: null }, followInvitation: expected });
      expect(page.headers['referrer-policy']).toBe('no-referrer');
    }
    await newPerson(t.app, email);
    const { extra } = await pageExtra(`/follow-invitation/?key=${key}`);
    expect(extra.followInvitation).toEqual({ ...expected, userExists: true });
    // Other pages carry no invitation even with a key.
    expect((await pageExtra(`/auth/login/?key=${key}`)).extra).toEqual({
      signaling: { immediatelyRedirectTo: null },
    });
  });

  it('missing, unknown, expired, revoked and used keys: hasError and the reason', async () => {
    const owner = await newOwner(t.app);
    const expired = await invited(owner);
    t.clock.advance(7 * DAY + 1000);
    const revoked = await invited(owner);
    await owner.c.request({ method: 'DELETE', url: `/api/invitations/${revoked.invitation.id}` });
    const used = await invited(owner);
    await (await newPerson(t.app, used.email)).c.post('/api/invitations/accept', { key: used.key });

    const cases: [string, Code][] = [
      ['/follow-invitation/', 'missing'],
      ['/follow-invitation/?key=', 'missing'],
      ['/auth/signup/from-invitation?other=1', 'missing'],
      [`/follow-invitation/?key=${unknownKey}`, 'not_found'],
      ['/follow-invitation/?key=short', 'not_found'],
      [`/auth/login/from-invitation?key=${expired.key}`, 'expired'],
      [`/follow-invitation/?key=${revoked.key}`, 'revoked'],
      [`/follow-invitation/?key=${used.key}`, 'accepted'],
    ];
    for (const [path, code] of cases) {
      const { extra, page } = await pageExtra(path);
      expect(extra).toEqual({
        signaling: { immediatelyRedirectTo: null },
        followInvitation: { hasError: true },
        followInvitationError: { code, message: texts[code] },
      });
      expect(page.headers['referrer-policy']).toBe('no-referrer');
    }
  });

  it('the request log never holds the key', async () => {
    const lines: string[] = [];
    const { buildTestApp } = await import('../../test-support/app.ts');
    const logged = await buildTestApp(t.db, {
      config: { logLevel: 'info' },
      logStream: { write: (line) => lines.push(line) },
      clock: t.clock,
    });
    try {
      const secret = 'S3cretKeyValue_abcdefghijklmnopqrstuvwxyz0';
      for (const url of [
        `/follow-invitation/?key=${secret}`,
        `/auth/login/from-invitation?a=1&KEY=${secret}`,
        `/follow-invitation/?%6Bey=${secret}`,
      ]) {
        await logged.app.inject({ method: 'GET', url });
      }
      expect(lines.length).toBeGreaterThan(0);
      expect(lines.join('\n')).not.toContain(secret);
      expect(lines.join('\n')).toContain('/follow-invitation/?key=[redacted]');
    } finally {
      await logged.app.close();
    }
  });
});

describe('POST /api/invitations/accept', () => {
  it('a newcomer signs up with the invited address and accepts: a member with the invited rights, verified, current', async () => {
    const owner = await newOwner(t.app, 'Umbrella');
    const { key, email } = await invited(owner, {
      role: 'member',
      canSearchData: true,
      canViewReports: false,
    });
    const newcomer = await newPerson(t.app, email, { verified: false });
    const before = (await newcomer.c.post('/api/auth/refresh-me')).json();
    expect(before.user.emailIsVerified).toBe(false);
    // Unverified, no account action is open (not even creating one); accepting is, and verifies the address.
    const refused = await newcomer.c.post('/api/accounts', { displayName: 'Side project' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      detail: 'Verify your e-mail address first.',
      MainCode_: 'email_not_verified',
    });

    const response = await newcomer.c.post('/api/invitations/accept', { key });
    expect(response.statusCode).toBe(200);
    const { membership } = response.json<{ membership: Membership }>();
    expect(membership).toEqual({
      id: expect.any(Number),
      role: 'member',
      canSearchData: true,
      canViewReports: false,
      account: { id: owner.accountId, displayName: 'Umbrella', uploadedProfileImage: null },
    });

    const me = (await newcomer.c.post('/api/auth/refresh-me')).json();
    expect(me.user).toMatchObject({ emailIsVerified: true, emailVerifiedAsOf: t.clock.now().toISOString() });
    expect(me.memberships).toEqual([membership]);
    expect(me.currentMembership).toEqual(membership);
    expect((await newcomer.c.post('/api/accounts', { displayName: 'Side project' })).statusCode).toBe(201);
    const team = (await owner.c.get(`/api/memberships?accountId=${owner.accountId}`)).json();
    expect(team.results.map((m: { user: { email: string } }) => m.user.email)).toEqual([owner.email, email]);
    const list = (await owner.c.get(`/api/invitations?accountId=${owner.accountId}`)).json<InvitationList>();
    expect(list.count).toBe(0);
    // Used: the link now says so, and a second accept is refused.
    const again = await newcomer.c.post('/api/invitations/accept', { key });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual(acceptError('accepted'));
  });

  it('an existing user with the address (other case) logs in and accepts as owner', async () => {
    const owner = await newOwner(t.app);
    const existing = await newPerson(t.app);
    const { key } = await invited(owner, { role: 'owner' }, existing.email.toUpperCase());
    const response = await existing.c.post('/api/invitations/accept', { key });
    expect(response.statusCode).toBe(200);
    expect(response.json().membership).toMatchObject({ role: 'owner', account: { id: owner.accountId } });
    const [row] = await t.db.db
      .select()
      .from(schema.invitations)
      .where(eq(schema.invitations.accountId, owner.accountId));
    expect(row).toMatchObject({ acceptedMembershipId: response.json().membership.id });
    expect(row?.acceptedAt).toBeInstanceOf(Date);
  });

  it('someone else cannot accept: 400 naming the invited address; the invitation stays pending', async () => {
    const owner = await newOwner(t.app);
    const { key, email } = await invited(owner);
    const intruder = await newPerson(t.app);
    const response = await intruder.c.post('/api/invitations/accept', { key });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      nonFieldErrors: [`This invitation was sent to ${email}. Log in with that address to accept it.`],
      MainCode_: 'invitation_wrong_invitee',
    });
    expect((await intruder.c.post('/api/auth/refresh-me')).json().memberships).toEqual([]);
    expect(
      (await (await newPerson(t.app, email)).c.post('/api/invitations/accept', { key })).statusCode,
    ).toBe(200);
  });

  it('unknown, expired and revoked keys are refused with their reason; logged out is 401', async () => {
    const owner = await newOwner(t.app);
    const expired = await invited(owner);
    t.clock.advance(7 * DAY + 1000);
    const revoked = await invited(owner);
    await owner.c.request({ method: 'DELETE', url: `/api/invitations/${revoked.invitation.id}` });
    for (const [key, email, code] of [
      [unknownKey, freshEmail(), 'not_found'],
      ['not-a-key', freshEmail(), 'not_found'],
      [expired.key, expired.email, 'expired'],
      [revoked.key, revoked.email, 'revoked'],
    ] as const) {
      const person = await newPerson(t.app, email);
      const response = await person.c.post('/api/invitations/accept', { key });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(acceptError(code));
    }
    const anonymous = await newPerson(t.app);
    await anonymous.c.post('/api/auth/logout');
    expect((await anonymous.c.post('/api/invitations/accept', { key: unknownKey })).statusCode).toBe(401);
    const empty = await owner.c.post('/api/invitations/accept', { key: '' });
    expect(empty.statusCode).toBe(400);
  });

  it('when the user is already a member: the membership stays as it is, the invitation is used', async () => {
    const owner = await newOwner(t.app);
    const member = await join(t.app, owner, { canSearchData: true });
    const { key, invitation } = await invited(owner, { role: 'owner' }, freshEmail());
    // The member's address becomes the invited one (e.g. after an e-mail change).
    await t.db.db
      .update(schema.invitations)
      .set({ email: member.email })
      .where(eq(schema.invitations.id, invitation.id));
    const response = await member.c.post('/api/invitations/accept', { key });
    expect(response.statusCode).toBe(200);
    expect(response.json().membership).toMatchObject({
      id: member.membership.id,
      role: 'member',
      canSearchData: true,
    });
    const page = await pageExtra(`/follow-invitation/?key=${key}`);
    expect(page.extra.followInvitationError).toMatchObject({ code: 'accepted' });
  });

  it('two accepts of one key at once: one membership', async () => {
    const owner = await newOwner(t.app);
    const { key, email } = await invited(owner);
    const person = await newPerson(t.app, email);
    const second = await newPerson(t.app);
    await second.c.login(email, person.password);
    const results = await Promise.all([
      person.c.post('/api/invitations/accept', { key }),
      second.c.post('/api/invitations/accept', { key }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    const loser = results.find((r) => r.statusCode === 400);
    expect(loser?.json()).toEqual(acceptError('accepted'));
    const rows = await t.db.db
      .select()
      .from(schema.memberships)
      .where(eq(schema.memberships.userId, person.userId));
    expect(rows).toHaveLength(1);
  });

  it('limits attempts to 20 an hour per user', async () => {
    const person = await newPerson(t.app);
    for (let i = 0; i < 20; i++) {
      expect((await person.c.post('/api/invitations/accept', { key: unknownKey })).statusCode).toBe(400);
    }
    const refused = await person.c.post('/api/invitations/accept', { key: unknownKey });
    expect(refused.statusCode).toBe(429);
    t.clock.advance(HOUR + 1000);
    expect((await person.c.post('/api/invitations/accept', { key: unknownKey })).statusCode).toBe(400);
  });
});

describe('resend and revoke', () => {
  it('resend: a new key (the old link dies), expiry re-armed, at most once per 30 s', async () => {
    const owner = await newOwner(t.app);
    const { invitation, key: oldKey, email } = await invited(owner);
    const url = `/api/invitations/${invitation.id}/resend`;
    const tooSoon = await owner.c.post(url);
    expect(tooSoon.statusCode).toBe(429);
    expect(Number(tooSoon.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(tooSoon.headers['retry-after'])).toBeLessThanOrEqual(30);

    t.clock.advance(6 * DAY);
    const resent = await owner.c.post(url);
    expect(resent.statusCode).toBe(200);
    const now = t.clock.now().getTime();
    expect(resent.json<Invitation>()).toMatchObject({
      id: invitation.id,
      status: 'pending',
      lastSentAt: new Date(now).toISOString(),
      expiresAt: new Date(now + 7 * DAY).toISOString(),
    });
    const newKey = await latestInvitationKey(t.app, email);
    expect(newKey).not.toBe(oldKey);
    expect((await outboxFor(t.app, email)).length).toBe(2);
    expect((await pageExtra(`/follow-invitation/?key=${oldKey}`)).extra.followInvitationError).toMatchObject({
      code: 'not_found',
    });
    expect((await owner.c.post(url)).statusCode).toBe(429);

    // Past the first expiry, the resent key still works.
    t.clock.advance(2 * DAY);
    const person = await newPerson(t.app, email);
    expect((await person.c.post('/api/invitations/accept', { key: oldKey })).json()).toEqual(
      acceptError('not_found'),
    );
    expect((await person.c.post('/api/invitations/accept', { key: newKey })).statusCode).toBe(200);
    // Accepted: nothing left to resend or revoke.
    t.clock.advance(60_000);
    expect((await owner.c.post(url)).json()).toEqual(notFound);
    expect(
      (await owner.c.request({ method: 'DELETE', url: `/api/invitations/${invitation.id}` })).statusCode,
    ).toBe(404);
  });

  it('resend brings an expired invitation back to pending', async () => {
    const owner = await newOwner(t.app);
    const { invitation } = await invited(owner);
    t.clock.advance(8 * DAY);
    const resent = await owner.c.post(`/api/invitations/${invitation.id}/resend`);
    expect(resent.json<Invitation>().status).toBe('pending');
  });

  it('revoke: 204, the link then says withdrawn, a second revoke is 404', async () => {
    const owner = await newOwner(t.app);
    const { invitation, key, email } = await invited(owner);
    const url = `/api/invitations/${invitation.id}`;
    const revoked = await owner.c.request({ method: 'DELETE', url });
    expect(revoked.statusCode).toBe(204);
    expect((await owner.c.request({ method: 'DELETE', url })).json()).toEqual(notFound);
    const person = await newPerson(t.app, email);
    expect((await person.c.post('/api/invitations/accept', { key })).json()).toEqual(acceptError('revoked'));
    // The address may be invited again.
    expect((await invite(owner, owner.accountId, email)).statusCode).toBe(201);
  });
});
