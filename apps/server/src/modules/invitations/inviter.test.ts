import { readFile } from 'node:fs/promises';
import { join as joinPath } from 'node:path';
import type { Invitation, InvitationList } from '@veriform/contracts';
import { migrationsFolder, schema } from '@veriform/db';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test-support/app.ts';
import { newSignup } from '../../test-support/client.ts';
import { DAY } from '../../test-support/clock.ts';
import { initialDataOf, latestInvitationKey } from '../../test-support/outbox.ts';
import { invite, type Joined, join, newOwner, newPerson, type Owner } from '../../test-support/teams.ts';

/**
 * An invitation is only as good as its inviter (issue 13 item 5): removing an owner, an owner leaving, or demoting
 * one to member revokes the invitations they sent that are still open, in the same transaction; accepting checks
 * again, under the account's lock, that the inviter is still a member who may invite.
 */

const t = useTestApp();

const revoked = {
  nonFieldErrors: ['This invitation was withdrawn. Ask the person who invited you if you should still join.'],
  MainCode_: 'invitation_revoked',
};

type Sent = { invitation: Invitation; key: string; email: string };

async function sentBy(
  inviter: Owner | Joined,
  accountId: number,
  role: 'owner' | 'member' = 'owner',
): Promise<Sent> {
  const email = newSignup().email;
  const response = await invite(inviter, accountId, email, { role });
  expect(response.statusCode, response.body).toBe(201);
  return { invitation: response.json<Invitation>(), key: await latestInvitationKey(t.app, email), email };
}

async function rowOf(id: number) {
  const [row] = await t.db.db.select().from(schema.invitations).where(eq(schema.invitations.id, id));
  if (!row) throw new Error(`no invitation ${id}`);
  return row;
}

async function accept(sent: Sent) {
  const person = await newPerson(t.app, sent.email);
  return { person, response: await person.c.post('/api/invitations/accept', { key: sent.key }) };
}

async function pageError(key: string) {
  const page = await t.app.inject({ method: 'GET', url: `/follow-invitation/?key=${key}` });
  return (initialDataOf(page.body) as { extra: { followInvitationError?: { code: string } } }).extra
    .followInvitationError;
}

/** An account with two owners: `owner` made it, `coOwner` joined as an owner. */
async function twoOwners() {
  const owner = await newOwner(t.app, 'Two Owners Inc.');
  const coOwner = await join(t.app, owner, { role: 'owner' });
  return { owner, coOwner };
}

const removeMember = (by: Owner | Joined, membershipId: number) =>
  by.c.request({ method: 'DELETE', url: `/api/memberships/${membershipId}` });

describe('invitations of someone who may no longer invite', () => {
  it('removing an owner revokes their open invitations: the link says withdrawn, accepting is refused, nothing else changes', async () => {
    const { owner, coOwner } = await twoOwners();
    const ofCoOwner = await sentBy(coOwner, owner.accountId);
    const ofOwner = await sentBy(owner, owner.accountId);

    expect((await removeMember(owner, coOwner.membership.id)).statusCode).toBe(204);

    expect((await rowOf(ofCoOwner.invitation.id)).revokedAt).toEqual(t.clock.now());
    expect(await pageError(ofCoOwner.key)).toMatchObject({ code: 'revoked' });
    const { person, response } = await accept(ofCoOwner);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(revoked);
    expect((await person.c.post('/api/auth/refresh-me')).json().memberships).toEqual([]);
    // The remaining owner is still the only owner, and their own invitation still works.
    const list = (await owner.c.get(`/api/invitations?accountId=${owner.accountId}`)).json<InvitationList>();
    expect(list.results.map((i) => i.id)).toEqual([ofOwner.invitation.id]);
    expect((await accept(ofOwner)).response.statusCode).toBe(200);
  });

  it('the attack: an owner removed cannot come back through an invitation as owner and take the account', async () => {
    const { owner, coOwner } = await twoOwners();
    // The co-owner invites a second address of theirs as owner, then is removed.
    const backdoor = await sentBy(coOwner, owner.accountId, 'owner');
    expect((await removeMember(owner, coOwner.membership.id)).statusCode).toBe(204);
    const { person, response } = await accept(backdoor);
    expect(response.json()).toEqual(revoked);
    const team = (await owner.c.get(`/api/memberships?accountId=${owner.accountId}`)).json();
    expect(team.results.map((m: { user: { email: string } }) => m.user.email)).toEqual([owner.email]);
    expect(
      (await person.c.post(`/api/memberships/${owner.membership.id}/update-role`, { role: 'member' }))
        .statusCode,
    ).toBe(404);
  });

  it('demoting an owner to member revokes theirs; promoting, or changing permissions, does not', async () => {
    const { owner, coOwner } = await twoOwners();
    const first = await sentBy(coOwner, owner.accountId, 'member');
    const roleUrl = `/api/memberships/${coOwner.membership.id}/update-role`;
    expect((await owner.c.post(roleUrl, { role: 'owner' })).statusCode).toBe(200);
    expect((await rowOf(first.invitation.id)).revokedAt).toBeNull();

    expect((await owner.c.post(roleUrl, { role: 'member' })).statusCode).toBe(200);
    expect((await rowOf(first.invitation.id)).revokedAt).toEqual(t.clock.now());
    expect((await accept(first)).response.json()).toEqual(revoked);
  });

  it('an owner who leaves leaves no invitations behind', async () => {
    const { owner, coOwner } = await twoOwners();
    const sent = await sentBy(coOwner, owner.accountId);
    expect((await removeMember(coOwner, coOwner.membership.id)).statusCode).toBe(204);
    expect((await accept(sent)).response.json()).toEqual(revoked);
  });

  it('accepting checks the inviter again: one no longer a member, or no longer an owner, makes it revoked', async () => {
    const { owner, coOwner } = await twoOwners();
    // Left open by changes made outside these rules (rows from before them, a direct database edit).
    const ofRemoved = await sentBy(coOwner, owner.accountId);
    const other = await join(t.app, owner, { role: 'owner' });
    const ofDemoted = await sentBy(other, owner.accountId);
    await t.db.db.delete(schema.memberships).where(eq(schema.memberships.id, coOwner.membership.id));
    await t.db.db
      .update(schema.memberships)
      .set({ role: 'member' })
      .where(eq(schema.memberships.id, other.membership.id));

    for (const sent of [ofRemoved, ofDemoted]) {
      expect(await pageError(sent.key)).toMatchObject({ code: 'revoked' });
      expect((await accept(sent)).response.json()).toEqual(revoked);
      expect((await rowOf(sent.invitation.id)).revokedAt).toEqual(t.clock.now());
    }
  });

  it('a removal racing with 50 accepts: each accept came wholly before it (a member) or is refused as revoked; none left open', async () => {
    const accepts = 50;
    const { owner, coOwner } = await twoOwners();
    // More invitations than accepts: the ones nobody accepts must end revoked too (50 sends a day per account).
    const sent: Sent[] = [];
    for (let i = 0; i < 40; i++) sent.push(await sentBy(coOwner, owner.accountId, 'owner'));
    t.clock.advance(DAY + 1000);
    for (let i = 0; i < 20; i++) sent.push(await sentBy(coOwner, owner.accountId, 'owner'));
    const people = await Promise.all(sent.slice(0, accepts).map((s) => newPerson(t.app, s.email)));

    const acceptCalls = people.map((person, i) =>
      person.c.post('/api/invitations/accept', { key: sent[i]?.key ?? '' }),
    );
    const half = Math.floor(accepts / 2);
    const answers = await Promise.all([
      ...acceptCalls.slice(0, half),
      removeMember(owner, coOwner.membership.id),
      ...acceptCalls.slice(half),
    ]);
    const removal = answers.splice(half, 1)[0];
    expect(removal?.statusCode).toBe(204);

    for (const [i, answer] of answers.entries()) {
      const invitation = sent[i]?.invitation;
      if (!invitation) throw new Error('missing invitation');
      const row = await rowOf(invitation.id);
      const [membership] = await t.db.db
        .select()
        .from(schema.memberships)
        .where(
          and(
            eq(schema.memberships.accountId, owner.accountId),
            eq(schema.memberships.userId, people[i]?.userId ?? 0),
          ),
        );
      if (answer.statusCode === 200) {
        expect(row.acceptedAt, `invitation ${i}`).not.toBeNull();
        expect(row.revokedAt).toBeNull();
        expect(membership?.id).toBe(row.acceptedMembershipId);
      } else {
        expect(answer.json(), `invitation ${i}`).toEqual(revoked);
        expect(row.acceptedAt).toBeNull();
        expect(row.revokedAt).not.toBeNull();
        expect(membership).toBeUndefined();
      }
    }
    for (const untouched of sent.slice(accepts)) {
      expect((await rowOf(untouched.invitation.id)).revokedAt).not.toBeNull();
    }
    // After the removal nothing of the removed owner can be accepted any more.
    const open = await t.db.db
      .select()
      .from(schema.invitations)
      .where(eq(schema.invitations.accountId, owner.accountId));
    expect(open.filter((row) => !row.acceptedAt && !row.revokedAt)).toEqual([]);
  }, 90_000); // 60 invitations and 50 sign-ups (argon2 each) before the race itself
});

describe('migration 0009: invitations left open by inviters removed before the rule', () => {
  it('revokes the open invitations of inviters who are no longer owners, and only those', async () => {
    const { owner, coOwner } = await twoOwners();
    const ofCoOwner = await sentBy(coOwner, owner.accountId);
    const ofOwner = await sentBy(owner, owner.accountId);
    expect((await removeMember(owner, coOwner.membership.id)).statusCode).toBe(204);
    // As the data stood before this release: the removal left the co-owner's invitation open.
    await t.db.db
      .update(schema.invitations)
      .set({ revokedAt: null })
      .where(eq(schema.invitations.id, ofCoOwner.invitation.id));

    const migration = await readFile(joinPath(migrationsFolder, '0009_media_in_use_indexes.sql'), 'utf8');
    const dataFix = migration.split('--> statement-breakpoint').find((part) => part.includes('UPDATE'));
    if (!dataFix) throw new Error('0009 has no data fix');
    await t.db.db.execute(sql.raw(dataFix));

    expect((await rowOf(ofCoOwner.invitation.id)).revokedAt).toBeInstanceOf(Date);
    expect((await rowOf(ofOwner.invitation.id)).revokedAt).toBeNull();
    expect((await accept(ofOwner)).response.statusCode).toBe(200);
  });
});
