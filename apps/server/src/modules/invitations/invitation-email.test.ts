import type { Invitation } from '@veriform/contracts';
import { describe, expect, it } from 'vitest';
import { invitationKeyContext, sendInvitationEmail } from '../../jobs/definitions/send-invitation-email.ts';
import { SealedValueError } from '../../lib/sealed.ts';
import { useTestApp } from '../../test-support/app.ts';
import { newSignup } from '../../test-support/client.ts';
import { type JobRow, jobsOf, jobsSettled } from '../../test-support/jobs.ts';
import { latestInvitationKey, outboxFor } from '../../test-support/outbox.ts';
import { invite, newOwner } from '../../test-support/teams.ts';

/**
 * The invitation e-mail is a job (issue #14 item 2) stored by the invitation's own transaction: one invitation, one
 * job, one e-mail, however many requests race; the key rests in it only sealed; a job whose key is no longer the
 * invitation's sends nothing.
 */

const t = useTestApp();

async function emailJobsOf(invitationId: number): Promise<JobRow[]> {
  const jobs = await jobsOf(t.app, sendInvitationEmail.name);
  return jobs.filter((job) => sendInvitationEmail.payload.parse(job.data).invitationId === invitationId);
}

async function created(email = newSignup().email) {
  const owner = await newOwner(t.app);
  const response = await invite(owner, owner.accountId, email);
  expect(response.statusCode).toBe(201);
  return { owner, email, invitation: response.json<Invitation>() };
}

describe('the invitation e-mail job', () => {
  it('holds the invitation id and the key sealed to that invitation: never the key, nor the address', async () => {
    const { email, invitation } = await created();
    const key = await latestInvitationKey(t.app, email);
    const [job, ...others] = await emailJobsOf(invitation.id);
    expect(others).toEqual([]);
    expect(job).toMatchObject({ state: 'completed', output: { outcome: 'sent' } });
    const payload = sendInvitationEmail.payload.parse(job?.data);
    expect(Object.keys(job?.data ?? {}).sort()).toEqual(['invitationId', 'sealedKey']);
    expect(JSON.stringify(job?.data)).not.toContain(key);
    expect(JSON.stringify(job?.data)).not.toContain(email);
    const { sealer } = t.app.services;
    expect(sealer.open(payload.sealedKey, invitationKeyContext(invitation.id))).toBe(key);
    expect(() => sealer.open(payload.sealedKey, invitationKeyContext(invitation.id + 1))).toThrow(
      SealedValueError,
    );
  });

  it('ten invitations of one address at once: one invitation, one job, one e-mail', async () => {
    const owner = await newOwner(t.app);
    const email = newSignup().email;
    const before = new Set((await jobsOf(t.app, sendInvitationEmail.name)).map((job) => job.id));
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => invite(owner, owner.accountId, email)),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, ...Array<number>(9).fill(400)]);
    const invitation = answers.find((a) => a.statusCode === 201)?.json<Invitation>();
    expect(await outboxFor(t.app, email)).toHaveLength(1);
    // The nine refused inserts rolled back their jobs with them.
    const added = (await jobsOf(t.app, sendInvitationEmail.name)).filter((job) => !before.has(job.id));
    expect(added.map((job) => sendInvitationEmail.payload.parse(job.data).invitationId)).toEqual([
      invitation?.id,
    ]);
  });

  it('five resends at once: one goes out, with one job and one more e-mail', async () => {
    const { owner, email, invitation } = await created();
    await jobsSettled(t.app);
    t.clock.advance(31_000);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => owner.c.post(`/api/invitations/${invitation.id}/resend`)),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 429, 429, 429, 429]);
    expect(await outboxFor(t.app, email)).toHaveLength(2);
    expect(await emailJobsOf(invitation.id)).toHaveLength(2);
  });

  it('a job whose key was replaced by a resend, or whose invitation was revoked, sends nothing', async () => {
    const { owner, email, invitation } = await created();
    await jobsSettled(t.app);
    const [first] = await emailJobsOf(invitation.id);
    t.clock.advance(31_000);
    expect((await owner.c.post(`/api/invitations/${invitation.id}/resend`)).statusCode).toBe(200);
    await jobsSettled(t.app);
    const [, second] = await emailJobsOf(invitation.id);

    // Run late (a retry after the resend), the first job finds another key: nothing goes out.
    await t.app.services.jobs.enqueue(sendInvitationEmail, sendInvitationEmail.payload.parse(first?.data));
    await jobsSettled(t.app);
    expect((await emailJobsOf(invitation.id)).at(-1)).toMatchObject({
      state: 'completed',
      output: { outcome: 'skipped' },
    });
    expect(await outboxFor(t.app, email)).toHaveLength(2);

    // Revoked: the current key's job sends nothing either.
    const revoked = await owner.c.request({ method: 'DELETE', url: `/api/invitations/${invitation.id}` });
    expect(revoked.statusCode).toBe(204);
    await t.app.services.jobs.enqueue(sendInvitationEmail, sendInvitationEmail.payload.parse(second?.data));
    await jobsSettled(t.app);
    expect((await emailJobsOf(invitation.id)).at(-1)).toMatchObject({
      state: 'completed',
      output: { outcome: 'skipped' },
    });
    expect(await outboxFor(t.app, email)).toHaveLength(2);
  });
});
