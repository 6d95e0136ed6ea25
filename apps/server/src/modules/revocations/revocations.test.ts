import type { Revocation, RevocationList, VerificationList } from '@veriform/contracts';
import { schema } from '@veriform/db';
import { and, asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test-support/app.ts';
import { DAY } from '../../test-support/clock.ts';
import { createPublicForm } from '../../test-support/public-verify.ts';
import { insertRevocation } from '../../test-support/revocations.ts';
import { join, newOwner, type Owner } from '../../test-support/teams.ts';
import { statusIs, statusOf } from './status.ts';

const t = useTestApp();

const list = async (owner: Owner, query = '') => {
  const response = await owner.c.get(`/api/revocations?account=${owner.accountId}${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<RevocationList>();
};

const record = (owner: Owner, body: Record<string, unknown>) =>
  owner.c.post(`/api/revocations?account=${owner.accountId}`, body);

/** A reply as the inbound webhook stores it (inbound.test.ts drives the webhook itself). */
const reply = (owner: Owner, words: string, status: 'open' | 'possible') =>
  insertRevocation(t.db.db, {
    accountId: owner.accountId,
    phone: '+12015550140',
    words,
    status,
    receivedAt: t.clock.now(),
  });

/** Moves a revocation's deadline to a day long past. */
async function pastDeadline(id: string) {
  await t.db.db
    .update(schema.revocations)
    .set({ deadline: '2001-01-02' })
    .where(eq(schema.revocations.id, id));
}

async function eventsOf(accountId: number, type: string) {
  const rows = await t.db.db
    .select({ data: schema.webhookEvents.data })
    .from(schema.webhookEvents)
    .where(and(eq(schema.webhookEvents.accountId, accountId), eq(schema.webhookEvents.type, type)))
    .orderBy(asc(schema.webhookEvents.createdAt));
  return rows.map((row) => row.data as Revocation);
}

async function auditOf(accountId: number) {
  const rows = await t.db.db
    .select({ action: schema.auditEvents.action, targetId: schema.auditEvents.targetId })
    .from(schema.auditEvents)
    .where(eq(schema.auditEvents.accountId, accountId))
    .orderBy(asc(schema.auditEvents.id));
  return rows.filter((row) => row.action.startsWith('revocation.'));
}

describe('revocations in the app (issue #35)', () => {
  it('a member records one received elsewhere: open, its deadline, the verifications before it; event and audit', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner, { name: 'Loans' });
    const [verification] = await t.db.db
      .insert(schema.verifications)
      .values({
        accountId: owner.accountId,
        verifyFormId: form.id,
        cellPhone: '+12015550171',
        verifyFormName: 'Loans',
        verificationMethod: 'sms',
        createdAt: new Date(t.clock.now().getTime() - DAY),
        verifiedAt: new Date(t.clock.now().getTime() - DAY),
      })
      .returning({ id: schema.verifications.id });

    const created = await record(owner, {
      phone: '(201) 555-0171',
      via: 'phone_call',
      note: 'Called support\nto stop',
    });
    expect(created.statusCode, created.body).toBe(201);
    const revocation = created.json<Revocation>();
    expect(revocation).toMatchObject({
      channel: 'member',
      via: 'phone_call',
      note: 'Called support\nto stop',
      recordedBy: owner.email,
      phone: '+12015550171',
      email: null,
      status: 'open',
      acknowledgedAt: null,
      verificationIds: [verification?.id],
    });
    expect(revocation.deadline).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect((await list(owner)).results).toEqual([revocation]);
    // The event carries the API's object: a live one (a test key's would say `livemode: false`).
    expect(await eventsOf(owner.accountId, 'consent.revoked')).toEqual([{ ...revocation, livemode: true }]);
    expect(await auditOf(owner.accountId)).toEqual([
      { action: 'revocation.recorded', targetId: revocation.id },
    ]);

    // By address only.
    const byEmail = await record(owner, { email: 'Someone@Example.com', via: 'email' });
    expect(byEmail.statusCode, byEmail.body).toBe(201);
    expect(byEmail.json<Revocation>()).toMatchObject({ phone: null, email: 'Someone@Example.com', note: '' });
  });

  it('refuses a body without a number or address, a bad number, a bad `via`, control characters (400, nothing stored)', async () => {
    const owner = await newOwner(t.app);
    const bad = [
      [{ via: 'letter' }, 'phone'],
      [{ phone: '12', via: 'letter' }, 'phone'],
      [{ phone: '+12015550171', via: 'fax' }, 'via'],
      [{ phone: 12015550171, via: 'letter' }, 'phone'],
      [{ email: 'not-an-address', via: 'email' }, 'email'],
      [{ phone: '+12015550171', via: 'letter', note: 'a\u0007bell' }, 'note'],
      [{ phone: '+12015550171', via: 'letter', note: 'x'.repeat(2001) }, 'note'],
    ] as const;
    for (const [body, field] of bad) {
      const response = await record(owner, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(response.json()), JSON.stringify(body)).toContain(field);
    }
    expect((await list(owner)).count).toBe(0);
  });

  it('lists by status: open, overdue once the deadline has passed, possible, acknowledged, dismissed; and by search', async () => {
    const owner = await newOwner(t.app);
    const open = (await record(owner, { phone: '+12015550172', via: 'letter' })).json<Revocation>();
    const possible = await reply(owner, 'who is this?', 'possible');
    expect((await list(owner, '&status=open')).results.map((r) => r.id)).toEqual([open.id]);
    expect((await list(owner, '&status=possible')).results.map((r) => r.id)).toEqual([possible]);
    expect((await list(owner, '&status=overdue')).count).toBe(0);

    // Its deadline passes (the clock stays: sessions would expire with it).
    await pastDeadline(open.id);
    expect((await list(owner, '&status=open')).count).toBe(0);
    const overdue = await list(owner, '&status=overdue');
    expect(overdue.results.map((r) => [r.id, r.status])).toEqual([[open.id, 'overdue']]);

    expect((await list(owner, '&q=555-0172')).results.map((r) => r.id)).toEqual([open.id]);
    expect((await list(owner, '&q=nobody@example.com')).count).toBe(0);
    // A bad status falls back to every status, as the log's filters do.
    expect((await list(owner, '&status=nonsense')).count).toBe(2);

    // The dashboard's counts: the same statuses, read in one statement.
    const counts = await owner.c.get(`/api/revocations/counts?account=${owner.accountId}`);
    expect(counts.statusCode, counts.body).toBe(200);
    expect(counts.json()).toEqual({ open: 0, overdue: 1, possible: 1 });
  });

  it('decides a possible one once: a revocation (open, consent.revoked) or not (dismissed); anything else is 409', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner, { name: 'Loans' });
    const before = new Date(t.clock.now().getTime() - DAY);
    await t.db.db.insert(schema.verifications).values({
      accountId: owner.accountId,
      verifyFormId: form.id,
      cellPhone: '+12015550140',
      verifyFormName: 'Loans',
      verificationMethod: 'sms',
      createdAt: before,
      verifiedAt: before,
    });
    const revokedAt = async () => {
      const page = await owner.c.get(`/api/verifications?account=${owner.accountId}`);
      return page.json<VerificationList>().results.map((v) => v.revocationId);
    };
    const yes = await reply(owner, 'please no more', 'possible');
    const no = await reply(owner, 'wrong number?', 'possible');
    // A possible one revokes nothing until a member decides it is one.
    expect(await revokedAt()).toEqual([null]);
    const decided = await owner.c.post(`/api/revocations/${yes}/decide`, { isRevocation: true });
    expect(decided.statusCode, decided.body).toBe(200);
    expect(decided.json<Revocation>().status).toBe('open');
    expect(await revokedAt()).toEqual([yes]);
    const dismissed = await owner.c.post(`/api/revocations/${no}/decide`, { isRevocation: false });
    expect(dismissed.json<Revocation>().status).toBe('dismissed');
    expect((await eventsOf(owner.accountId, 'consent.revoked')).map((r) => r.id)).toEqual([yes]);

    const again = await owner.c.post(`/api/revocations/${yes}/decide`, { isRevocation: false });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      detail: 'Only a possible revocation can be decided.',
      MainCode_: 'conflict',
    });
    expect((await list(owner, '&status=open')).results.map((r) => r.id)).toEqual([yes]);
    expect((await owner.c.post(`/api/revocations/${no}/decide`, { isRevocation: 'yes' })).statusCode).toBe(
      400,
    );
  });

  it('acknowledges an open (or overdue) one once: 20 at once make one 200 and nineteen 409s, one event', async () => {
    const owner = await newOwner(t.app);
    const member = await join(t.app, owner, { canSearchData: true });
    const open = (await record(owner, { phone: '+12015550173', via: 'other' })).json<Revocation>();
    await pastDeadline(open.id);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 === 0 ? owner : member).c.post(`/api/revocations/${open.id}/acknowledge`),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, ...Array(19).fill(409)]);
    const [acknowledged] = (await list(owner)).results;
    expect(acknowledged).toMatchObject({ id: open.id, status: 'acknowledged' });
    expect(acknowledged?.acknowledgedAt).toBe(t.clock.now().toISOString());
    expect(await eventsOf(owner.accountId, 'revocation.acknowledged')).toHaveLength(1);
    expect((await auditOf(owner.accountId)).map((a) => a.action)).toEqual([
      'revocation.recorded',
      'revocation.acknowledged',
    ]);
    // A possible one cannot be acknowledged before it is decided.
    const possible = await reply(owner, 'hmm', 'possible');
    expect((await owner.c.post(`/api/revocations/${possible}/acknowledge`)).statusCode).toBe(409);
  });

  it('reads "overdue" by one rule in both forms: a row read alone and a list’s condition agree at the deadline’s edge', async () => {
    const owner = await newOwner(t.app);
    const ids: Record<string, string> = {};
    for (const [name, deadline, status] of [
      ['yesterday', '2026-12-09', 'open'],
      ['today', '2026-12-10', 'open'],
      ['tomorrow', '2026-12-11', 'open'],
      ['possible', '2026-12-01', 'possible'],
    ] as const) {
      const id = await reply(owner, name, status);
      await t.db.db.update(schema.revocations).set({ deadline }).where(eq(schema.revocations.id, id));
      ids[name] = id;
    }
    const rows = await t.db.db
      .select()
      .from(schema.revocations)
      .where(eq(schema.revocations.accountId, owner.accountId));
    // The last second of 10 Dec in New York, and the first of the 11th.
    for (const now of [new Date('2026-12-11T04:59:59Z'), new Date('2026-12-11T05:00:00Z')]) {
      for (const status of ['open', 'overdue', 'possible'] as const) {
        const read = rows.filter((row) => statusOf(row, now) === status).map((row) => row.id);
        const selected = await t.db.db
          .select({ id: schema.revocations.id })
          .from(schema.revocations)
          .where(and(eq(schema.revocations.accountId, owner.accountId), statusIs(status, now)));
        expect(selected.map((row) => row.id).sort(), `${status} at ${now.toISOString()}`).toEqual(
          read.sort(),
        );
      }
    }
    const overdueAt = (now: Date) =>
      rows.filter((row) => statusOf(row, now) === 'overdue').map((row) => row.id);
    expect(overdueAt(new Date('2026-12-11T04:59:59Z'))).toEqual([ids.yesterday]);
    expect(overdueAt(new Date('2026-12-11T05:00:00Z')).sort()).toEqual([ids.yesterday, ids.today].sort());
  });
});
