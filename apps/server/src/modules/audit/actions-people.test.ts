import {
  type AuditAction,
  type AuditEvent,
  type AuditEventList,
  INVITATION_RESEND_SECONDS,
  type Invitation,
} from '@veriform/contracts';
import { schema } from '@veriform/db';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test-support/app.ts';
import { storedChainOf } from '../../test-support/audit.ts';
import { newSignup, TestClient } from '../../test-support/client.ts';
import { latestInvitationKey, latestLink } from '../../test-support/outbox.ts';
import {
  invite,
  join,
  newOwner,
  newPerson,
  nextIp,
  type Owner,
  type Person,
} from '../../test-support/teams.ts';
import { verifyChain } from './chain.ts';

/** Issue #16 item 2, the people's actions: signing in and out, passwords and addresses, invitations, the team. */

const t = useTestApp();

const AGENT = 'People-Audit/1.0';
const PASSWORD = newSignup().password;
const NEW_PASSWORD = 'Brand-new-pass-7';

/** The account's events of `action` (on `target` when given), newest first, as its owner reads them. */
async function eventsOf(
  owner: Owner,
  action: AuditAction,
  target?: { type: string; id: number },
): Promise<AuditEvent[]> {
  const on = target ? `&targetType=${target.type}&targetId=${target.id}` : '';
  const response = await owner.c.get(`/api/audit-events?account=${owner.accountId}&action=${action}${on}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<AuditEventList>().results;
}

/** The one event of `action` (on `target`) in the owner's account. */
async function onlyEvent(
  owner: Owner,
  action: AuditAction,
  target?: { type: string; id: number },
): Promise<AuditEvent> {
  const events = await eventsOf(owner, action, target);
  expect(events).toHaveLength(1);
  const [event] = events;
  if (!event) throw new Error(`no ${action} event`);
  return event;
}

/** The account's chain as stored, in order, in the form the check reads. */
const storedChain = (accountId: number) => storedChainOf(t.db.db, accountId);

async function expectChainsOk(...accountIds: number[]): Promise<void> {
  for (const accountId of accountIds) {
    const chain = await storedChain(accountId);
    expect(await verifyChain(chain)).toEqual({ ok: true, count: chain.length });
  }
}

/** Every stored event naming `name` as actor or first target, in any account. */
async function eventsNaming(name: string) {
  const rows = await t.db.db.select().from(schema.auditEvents);
  return rows.filter(
    (row) => row.actorName === name || (row.targets as { name: string }[])[0]?.name === name,
  );
}

const userActor = (person: { userId: number; email: string }) => ({
  type: 'user',
  id: String(person.userId),
  name: person.email,
});
const userTarget = (person: { userId: number; email: string }) => ({
  type: 'user',
  id: String(person.userId),
  name: person.email,
});
const withAgent = { headers: { 'user-agent': AGENT } };

/** A browser on a fresh address, with a CSRF token, logged in as nobody yet. */
async function freshClient(): Promise<TestClient> {
  const c = new TestClient(t.app, nextIp());
  await c.fetchCsrf();
  return c;
}

async function login(c: TestClient, person: Pick<Person, 'email'>, password = PASSWORD) {
  return c.post('/api/auth/login', { email: person.email, password }, withAgent);
}

describe('signing in and out', () => {
  it('auth.login_succeeded: the user, from the signing-in browser', async () => {
    const owner = await newOwner(t.app);
    const c = await freshClient();
    expect((await login(c, owner)).statusCode).toBe(200);

    expect(await onlyEvent(owner, 'auth.login_succeeded')).toMatchObject({
      actor: userActor(owner),
      targets: [userTarget(owner)],
      changes: null,
      ip: c.ip,
      userAgent: AGENT,
      requestId: expect.any(String),
    });
    await expectChainsOk(owner.accountId);
  });

  it('auth.login_failed: one event in each account of a known user; an unknown address records nothing', async () => {
    const owner = await newOwner(t.app, 'First Co');
    const other = await newOwner(t.app, 'Second Co');
    const both = await join(t.app, other);
    // `both` is a member of Second Co and the owner of an account of their own.
    const own = await both.c.post('/api/accounts', { displayName: 'Own Co' });
    expect(own.statusCode).toBe(201);
    const ownAccount: Owner = {
      ...both,
      membership: own.json().membership,
      accountId: own.json().membership.account.id,
    };

    const c = await freshClient();
    expect((await login(c, both, 'Wrong-password-1')).statusCode).toBe(400);
    for (const reader of [other, ownAccount]) {
      expect(await onlyEvent(reader, 'auth.login_failed')).toMatchObject({
        actor: userActor(both),
        targets: [userTarget(both)],
        changes: null,
        ip: c.ip,
        userAgent: AGENT,
      });
    }
    expect(await eventsOf(owner, 'auth.login_failed')).toEqual([]);

    const unknown = `nobody-${both.email}`;
    expect((await login(c, { email: unknown }, 'Wrong-password-1')).statusCode).toBe(400);
    expect(await eventsNaming(unknown)).toEqual([]);
    await expectChainsOk(other.accountId, ownAccount.accountId);
  });

  it('auth.login_failed: a burst of wrong passwords records the guesses checked, none of those refused (429)', async () => {
    const owner = await newOwner(t.app);
    const c = await freshClient();
    const answers = await Promise.all(Array.from({ length: 8 }, () => login(c, owner, 'Wrong-password-1')));
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes).toEqual([400, 400, 400, 400, 400, 429, 429, 429]);
    expect(await eventsOf(owner, 'auth.login_failed')).toHaveLength(5);
    await expectChainsOk(owner.accountId);
  });

  it('auth.logout: the user, once, however many sign-outs race', async () => {
    const owner = await newOwner(t.app);
    const c = await freshClient();
    await login(c, owner);
    const answers = await Promise.all([
      c.post('/api/auth/logout', {}, withAgent),
      c.post('/api/auth/logout', {}, withAgent),
      c.post('/api/auth/logout', {}, withAgent),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    // Signed out already: nothing more.
    expect((await c.post('/api/auth/logout', {}, withAgent)).statusCode).toBe(200);

    expect(await onlyEvent(owner, 'auth.logout')).toMatchObject({
      actor: userActor(owner),
      targets: [userTarget(owner)],
      changes: null,
      ip: c.ip,
      userAgent: AGENT,
    });
    await expectChainsOk(owner.accountId);
  });
});

describe('passwords and addresses', () => {
  it('user.password_changed in My Account; a wrong current password records nothing', async () => {
    const owner = await newOwner(t.app);
    const change = (previousPassword: string) =>
      owner.c.post(
        '/api/auth/change-password',
        { previousPassword, newPassword: NEW_PASSWORD, newPasswordConfirm: NEW_PASSWORD },
        withAgent,
      );
    expect((await change('Not-my-password-1')).statusCode).toBe(400);
    expect(await eventsOf(owner, 'user.password_changed')).toEqual([]);

    expect((await change(PASSWORD)).statusCode).toBe(200);
    const event = await onlyEvent(owner, 'user.password_changed');
    expect(event).toMatchObject({
      actor: userActor(owner),
      targets: [userTarget(owner)],
      changes: null,
      ip: owner.c.ip,
      userAgent: AGENT,
    });
    expect(JSON.stringify(event)).not.toContain(NEW_PASSWORD);
    await expectChainsOk(owner.accountId);
  });

  it('user.password_changed by a reset link: the user, from where the link was opened', async () => {
    const owner = await newOwner(t.app);
    const asker = await freshClient();
    expect((await asker.post('/api/auth/reset-password', { email: owner.email })).statusCode).toBe(200);
    const link = await latestLink(t.app, owner.email, 'reset-password');
    const opener = await freshClient();
    const confirm = () =>
      opener.post(
        '/api/auth/reset-password/confirm',
        {
          uidb64: link.uidb64,
          token: link.token,
          newPassword: NEW_PASSWORD,
          newPasswordConfirm: NEW_PASSWORD,
        },
        withAgent,
      );
    expect((await confirm()).statusCode).toBe(200);
    // The link works once; its second use is refused and records nothing.
    expect((await confirm()).statusCode).toBe(400);

    // The reset ended the owner's sessions: they read the log after signing in again.
    await owner.c.fetchCsrf();
    expect((await owner.c.login(owner.email, NEW_PASSWORD)).statusCode).toBe(200);
    const event = await onlyEvent(owner, 'user.password_changed');
    expect(event).toMatchObject({
      actor: userActor(owner),
      targets: [userTarget(owner)],
      changes: null,
      ip: opener.ip,
      userAgent: AGENT,
    });
    expect(JSON.stringify(event)).not.toContain(link.token);
    await expectChainsOk(owner.accountId);
  });

  it('user.email_changed: the user under the new address, the address before and after', async () => {
    const owner = await newOwner(t.app);
    const toEmail = `moved-${owner.email}`;
    const asked = await owner.c.post('/api/auth/change-email/request', { toEmail, password: PASSWORD });
    expect(asked.statusCode, asked.body).toBe(200);
    const link = await latestLink(t.app, toEmail, 'change-email');
    const opener = await freshClient();
    const confirm = () =>
      opener.post('/api/auth/change-email/confirm', { uidb64: link.uidb64, token: link.token }, withAgent);
    expect((await confirm()).statusCode).toBe(200);
    expect((await confirm()).statusCode).toBe(400);

    const moved = { ...owner, email: toEmail };
    expect(await onlyEvent(moved, 'user.email_changed')).toMatchObject({
      actor: userActor(moved),
      targets: [userTarget(moved)],
      changes: { email: [owner.email, toEmail] },
      ip: opener.ip,
      userAgent: AGENT,
    });
    await expectChainsOk(owner.accountId);
  });
});

describe('invitations', () => {
  const invitationTarget = (invitation: Invitation) => ({
    type: 'invitation',
    id: String(invitation.id),
    name: invitation.email,
  });
  const on = (invitation: Invitation) => ({ type: 'invitation', id: invitation.id });

  async function invited(owner: Owner, options: Parameters<typeof invite>[3] = {}): Promise<Invitation> {
    const response = await invite(owner, owner.accountId, newSignup().email, options);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Invitation>();
  }

  it('invitation.sent: the owner, the invitee, the role and switches invited; a member’s 403 records nothing', async () => {
    const owner = await newOwner(t.app);
    const member = await join(t.app, owner);
    const before = await eventsOf(owner, 'invitation.sent');
    expect((await invite(member, owner.accountId, newSignup().email)).statusCode).toBe(403);
    expect(await eventsOf(owner, 'invitation.sent')).toEqual(before);

    const invitation = await invited(owner, { canSearchData: true });
    expect(await onlyEvent(owner, 'invitation.sent', on(invitation))).toMatchObject({
      actor: userActor(owner),
      targets: [invitationTarget(invitation)],
      changes: { role: [null, 'member'], canSearchData: [null, true], canViewReports: [null, false] },
      ip: owner.c.ip,
    });
    await expectChainsOk(owner.accountId);
  });

  it('invitation.resent: once, however many resends race', async () => {
    const owner = await newOwner(t.app);
    const invitation = await invited(owner);
    t.clock.advance(INVITATION_RESEND_SECONDS * 1000 + 1);
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => owner.c.post(`/api/invitations/${invitation.id}/resend`)),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 429, 429, 429]);
    expect(await onlyEvent(owner, 'invitation.resent', on(invitation))).toMatchObject({
      actor: userActor(owner),
      targets: [invitationTarget(invitation)],
      changes: null,
      ip: owner.c.ip,
    });
    await expectChainsOk(owner.accountId);
  });

  it('invitation.revoked: once; revoking it again is a 404 and records nothing', async () => {
    const owner = await newOwner(t.app);
    const invitation = await invited(owner, { role: 'owner' });
    const answers = await Promise.all([
      owner.c.request({ method: 'DELETE', url: `/api/invitations/${invitation.id}` }),
      owner.c.request({ method: 'DELETE', url: `/api/invitations/${invitation.id}` }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([204, 404]);
    expect(await onlyEvent(owner, 'invitation.revoked', on(invitation))).toMatchObject({
      actor: userActor(owner),
      targets: [invitationTarget(invitation)],
      changes: null,
      ip: owner.c.ip,
    });
    await expectChainsOk(owner.accountId);
  });

  /** An invitation of `email` in the owner's account, and its e-mailed key. */
  async function invitedWithKey(owner: Owner, email: string, options: Parameters<typeof invite>[3] = {}) {
    const response = await invite(owner, owner.accountId, email, options);
    expect(response.statusCode, response.body).toBe(201);
    return { invitation: response.json<Invitation>(), key: await latestInvitationKey(t.app, email) };
  }
  const accept = (person: Person, key: string) =>
    person.c.post('/api/invitations/accept', { key }, withAgent);
  const membershipTarget = (id: number, person: Person) => ({
    type: 'membership',
    id: String(id),
    name: person.email,
  });

  it('invitation.accepted: the accepting user, the new membership’s rights, in that account only', async () => {
    const owner = await newOwner(t.app, 'Inviting Co');
    // The invitee owns a company of their own, which must hear nothing of this.
    const invitee = await newOwner(t.app, 'Own Co');
    const { invitation, key } = await invitedWithKey(owner, invitee.email, { canViewReports: true });

    const accepted = await accept(invitee, key);
    expect(accepted.statusCode, accepted.body).toBe(200);
    const membership = accepted.json<{ membership: { id: number } }>().membership;
    expect(await onlyEvent(owner, 'invitation.accepted', on(invitation))).toMatchObject({
      actor: userActor(invitee),
      targets: [invitationTarget(invitation), membershipTarget(membership.id, invitee)],
      changes: { role: [null, 'member'], canSearchData: [null, false], canViewReports: [null, true] },
      ip: invitee.c.ip,
      userAgent: AGENT,
      requestId: expect.any(String),
    });
    expect(await eventsOf(invitee, 'invitation.accepted')).toEqual([]);
    await expectChainsOk(owner.accountId, invitee.accountId);
  });

  it('invitation.accepted by one already a member: the membership kept as it was, no changes', async () => {
    const owner = await newOwner(t.app);
    const member = await join(t.app, owner, { canSearchData: true });
    const { invitation, key } = await invitedWithKey(owner, newSignup().email, { role: 'owner' });
    // The member's address becomes the invited one (as after an e-mail change).
    await t.db.db
      .update(schema.invitations)
      .set({ email: member.email })
      .where(eq(schema.invitations.id, invitation.id));

    expect((await accept(member, key)).statusCode).toBe(200);
    expect(await onlyEvent(owner, 'invitation.accepted', on(invitation))).toMatchObject({
      actor: userActor(member),
      targets: [
        { ...invitationTarget(invitation), name: member.email },
        membershipTarget(member.membership.id, member),
      ],
      changes: null,
      ip: member.c.ip,
    });
    await expectChainsOk(owner.accountId);
  });

  it('invitation.accepted: a refused accept (someone else, revoked, expired, used already) records nothing', async () => {
    const owner = await newOwner(t.app);
    const invitee = await newPerson(t.app);
    const { key } = await invitedWithKey(owner, invitee.email);
    const intruder = await newPerson(t.app);
    expect((await accept(intruder, key)).statusCode).toBe(400);

    const revokedEmail = newSignup().email;
    const revoked = await invitedWithKey(owner, revokedEmail);
    const gone = await owner.c.request({
      method: 'DELETE',
      url: `/api/invitations/${revoked.invitation.id}`,
    });
    expect(gone.statusCode).toBe(204);
    expect((await accept(await newPerson(t.app, revokedEmail), revoked.key)).statusCode).toBe(400);

    const lateEmail = newSignup().email;
    const late = await invitedWithKey(owner, lateEmail);
    t.clock.advance(8 * 24 * 60 * 60 * 1000);
    expect((await accept(await newPerson(t.app, lateEmail), late.key)).statusCode).toBe(400);
    expect(await eventsOf(owner, 'invitation.accepted')).toEqual([]);
    expect(await eventsNaming(intruder.email)).toEqual([]);

    const fresh = await invitedWithKey(owner, newSignup().email);
    const joiner = await newPerson(t.app, fresh.invitation.email);
    expect((await accept(joiner, fresh.key)).statusCode).toBe(200);
    expect((await accept(joiner, fresh.key)).statusCode).toBe(400);
    expect(await onlyEvent(owner, 'invitation.accepted')).toMatchObject({ actor: userActor(joiner) });
    await expectChainsOk(owner.accountId);
  });

  it('invitation.accepted: once, however many accepts of one key race', async () => {
    const owner = await newOwner(t.app);
    const email = newSignup().email;
    const { invitation, key } = await invitedWithKey(owner, email);
    const invitee = await newPerson(t.app, email);
    const elsewhere = { ...invitee, c: await freshClient() };
    expect((await login(elsewhere.c, invitee)).statusCode).toBe(200);

    const answers = await Promise.all([
      accept(invitee, key),
      accept(elsewhere, key),
      accept(invitee, key),
      accept(elsewhere, key),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400, 400, 400]);
    const event = await onlyEvent(owner, 'invitation.accepted', on(invitation));
    expect(event).toMatchObject({ actor: userActor(invitee), changes: { role: [null, 'member'] } });
    await expectChainsOk(owner.accountId);
  });
});

describe('the team', () => {
  const memberTargets = (person: { userId: number; email: string; membership: { id: number } }) => [
    { type: 'membership', id: String(person.membership.id), name: person.email },
    userTarget(person),
  ];
  const on = (person: { membership: { id: number } }) => ({ type: 'membership', id: person.membership.id });

  it('membership.role_changed: before and after; the same role again, or a member’s 403, records nothing', async () => {
    const owner = await newOwner(t.app);
    const member = await join(t.app, owner);
    const other = await join(t.app, owner);
    const url = `/api/memberships/${member.membership.id}/update-role`;
    expect((await other.c.post(url, { role: 'owner' })).statusCode).toBe(403);
    expect((await owner.c.post(url, { role: 'member' })).statusCode).toBe(200);
    expect(await eventsOf(owner, 'membership.role_changed')).toEqual([]);

    expect((await owner.c.post(url, { role: 'owner' })).statusCode).toBe(200);
    expect(await onlyEvent(owner, 'membership.role_changed', on(member))).toMatchObject({
      actor: userActor(owner),
      targets: memberTargets(member),
      changes: { role: ['member', 'owner'] },
      ip: owner.c.ip,
    });
    await expectChainsOk(owner.accountId);
  });

  it('membership.permissions_changed: only the switches that changed, once however many identical changes race', async () => {
    const owner = await newOwner(t.app);
    const member = await join(t.app, owner, { canViewReports: true });
    const url = `/api/memberships/${member.membership.id}/update-permissions`;
    const body = { canSearchData: true, canViewReports: true };
    expect((await member.c.post(url, body)).statusCode).toBe(403);
    expect(await eventsOf(owner, 'membership.permissions_changed')).toEqual([]);

    const answers = await Promise.all(Array.from({ length: 4 }, () => owner.c.post(url, body)));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200]);
    expect(await onlyEvent(owner, 'membership.permissions_changed', on(member))).toMatchObject({
      actor: userActor(owner),
      targets: memberTargets(member),
      changes: { canSearchData: [false, true] },
      ip: owner.c.ip,
    });

    expect((await owner.c.post(url, { canSearchData: false, canViewReports: false })).statusCode).toBe(200);
    const [latest] = await eventsOf(owner, 'membership.permissions_changed', on(member));
    expect(latest?.changes).toEqual({ canSearchData: [true, false], canViewReports: [true, false] });
    await expectChainsOk(owner.accountId);
  });

  it('membership.removed by an owner: what the membership was; a member’s 403 and the last owner’s 400 record nothing', async () => {
    const owner = await newOwner(t.app);
    const member = await join(t.app, owner, { canSearchData: true });
    const other = await join(t.app, owner);
    const remove = (by: Person, who: { membership: { id: number } }) =>
      by.c.request({ method: 'DELETE', url: `/api/memberships/${who.membership.id}` });
    expect((await remove(other, member)).statusCode).toBe(403);
    expect((await remove(owner, owner)).statusCode).toBe(400);
    expect(await eventsOf(owner, 'membership.removed')).toEqual([]);

    expect((await remove(owner, member)).statusCode).toBe(204);
    expect(await onlyEvent(owner, 'membership.removed', on(member))).toMatchObject({
      actor: userActor(owner),
      targets: memberTargets(member),
      changes: { role: ['member', null], canSearchData: [true, null], canViewReports: [false, null] },
      ip: owner.c.ip,
    });
    await expectChainsOk(owner.accountId);
  });

  it('membership.removed by the member leaving: the member is the actor', async () => {
    const owner = await newOwner(t.app);
    const member = await join(t.app, owner);
    const left = await member.c.request({
      method: 'DELETE',
      url: `/api/memberships/${member.membership.id}`,
      ...withAgent,
    });
    expect(left.statusCode).toBe(204);
    expect(await onlyEvent(owner, 'membership.removed', on(member))).toMatchObject({
      actor: userActor(member),
      targets: memberTargets(member),
      changes: { role: ['member', null], canSearchData: [false, null], canViewReports: [false, null] },
      ip: member.c.ip,
      userAgent: AGENT,
    });
    await expectChainsOk(owner.accountId);
  });
});
