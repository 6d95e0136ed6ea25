import type { LegalHold, LegalHoldList, VerificationDetail } from '@veriform/contracts';
import { schema, transaction } from '@veriform/db';
import { and, asc, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { maskPhone } from '../../domain/phone.ts';
import { apiV1, newApiKey } from '../../test-support/api-v1/client.ts';
import { useTestApp } from '../../test-support/app.ts';
import { MINUTE } from '../../test-support/clock.ts';
import { createPublicForm } from '../../test-support/public-verify.ts';
import { join, newOwner, type Owner } from '../../test-support/teams.ts';
import { createForm, insertVerification, verifyThroughApi } from '../verifications/test-helpers.ts';
import { lockLegalHolds } from './held.ts';

/** Legal holds (issue #37 item 2): placed, listed, released, audited and sent; what they reach kept from redaction. */

const t = useTestApp();

const place = (owner: { c: Owner['c'] }, accountId: number, body: Record<string, unknown>) =>
  owner.c.post(`/api/legal-holds?account=${accountId}`, body);

async function placed(owner: Owner, body: Record<string, unknown>): Promise<LegalHold> {
  const response = await place(owner, owner.accountId, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<LegalHold>();
}

async function list(owner: { c: Owner['c'] }, accountId: number, query = '') {
  const response = await owner.c.get(`/api/legal-holds?account=${accountId}${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<LegalHoldList>();
}

const release = (owner: { c: Owner['c'] }, id: string, reason = 'Case settled') =>
  owner.c.post(`/api/legal-holds/${id}/release`, { reason });

async function eventsOf(accountId: number) {
  const rows = await t.db.db
    .select({ type: schema.webhookEvents.type, data: schema.webhookEvents.data })
    .from(schema.webhookEvents)
    .where(eq(schema.webhookEvents.accountId, accountId))
    .orderBy(asc(schema.webhookEvents.createdAt));
  return rows.filter((row) => row.type.startsWith('legal_hold.'));
}

async function auditOf(accountId: number) {
  const rows = await t.db.db
    .select({
      action: schema.auditEvents.action,
      targetType: schema.auditEvents.targetType,
      targetId: schema.auditEvents.targetId,
      targets: schema.auditEvents.targets,
    })
    .from(schema.auditEvents)
    .where(eq(schema.auditEvents.accountId, accountId))
    .orderBy(asc(schema.auditEvents.id));
  return rows.filter((row) => row.action.startsWith('legal_hold.'));
}

const detailOf = async (owner: Owner, id: number) => {
  const response = await owner.c.get(`/api/verifications/${id}?account=${owner.accountId}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<VerificationDetail>();
};

const redact = (owner: Owner, id: number) =>
  owner.c.post(`/api/verifications/${id}/redact?account=${owner.accountId}`, {});

describe('legal holds (issue #37 item 2)', () => {
  it('an owner places a hold on a number: 201 with who and when, listed, audited (masked) and sent as an event', async () => {
    const owner = await newOwner(t.app);
    const form = await createForm(owner);
    await insertVerification(t, form, { cellPhone: '+12015550111' });
    await insertVerification(t, form, { cellPhone: '+12015550112' });

    const hold = await placed(owner, {
      scope: 'identifier',
      phone: '(201) 555-0111',
      reason: 'Smith v. Acme',
    });
    expect(hold).toMatchObject({
      scope: 'identifier',
      phone: '+12015550111',
      email: null,
      formId: null,
      verificationId: null,
      reason: 'Smith v. Acme',
      status: 'active',
      placedBy: owner.email,
      placedAt: t.clock.now().toISOString(),
      releasedAt: null,
      releasedBy: null,
      releaseReason: null,
      reaches: { verifications: 1, more: false },
    });
    expect(hold.id).toMatch(/^lh_[A-Za-z0-9_-]{22}$/);
    expect((await list(owner, owner.accountId)).results).toEqual([hold]);
    const one = await owner.c.get(`/api/legal-holds/${hold.id}`);
    expect(one.json()).toEqual(hold);

    const maskedNumber = maskPhone('+12015550111');
    expect(maskedNumber).not.toContain('555');
    const { reaches: _reaches, formName: _formName, ...eventData } = hold;
    expect(await eventsOf(owner.accountId)).toEqual([{ type: 'legal_hold.placed', data: eventData }]);
    expect(await auditOf(owner.accountId)).toEqual([
      {
        action: 'legal_hold.placed',
        targetType: 'legal_hold',
        targetId: hold.id,
        targets: [{ type: 'legal_hold', id: hold.id, name: maskedNumber }],
      },
    ]);
  });

  it('each scope: the account, a form, an address (lower-cased), a verification; what each reaches', async () => {
    const owner = await newOwner(t.app);
    const form = await createForm(owner, { name: 'Loans' });
    const other = await createForm(owner, { name: 'Cards' });
    const a = await insertVerification(t, form, { email: 'pat@example.com', verificationMethod: 'email' });
    await insertVerification(t, other);

    const account = await placed(owner, { scope: 'account', reason: 'Regulator inquiry' });
    expect(account.reaches).toEqual({ verifications: 2, more: false });
    t.clock.advance(MINUTE);
    const byForm = await placed(owner, { scope: 'form', formId: form.id, reason: 'Class action' });
    expect(byForm).toMatchObject({ formId: form.id, formName: 'Loans', reaches: { verifications: 1 } });
    t.clock.advance(MINUTE);
    const byEmail = await placed(owner, {
      scope: 'identifier',
      email: 'Pat@Example.com',
      reason: 'Subpoena',
    });
    t.clock.advance(MINUTE);
    expect(byEmail).toMatchObject({ email: 'pat@example.com', phone: null, reaches: { verifications: 1 } });
    const byId = await placed(owner, { scope: 'verification', verificationId: a.id, reason: 'Dispute' });
    expect(byId).toMatchObject({ verificationId: a.id, reaches: { verifications: 1 } });

    // The detail carries every hold reaching it, oldest first; the other verification only the account's.
    const detail = await detailOf(owner, a.id);
    expect(detail.heldBy).toEqual([account.id, byForm.id, byEmail.id, byId.id]);
    expect(detail.holds.map((h) => [h.id, h.scope, h.reason])).toEqual([
      [account.id, 'account', 'Regulator inquiry'],
      [byForm.id, 'form', 'Class action'],
      [byEmail.id, 'identifier', 'Subpoena'],
      [byId.id, 'verification', 'Dispute'],
    ]);
  });

  it('counts what an active hold reaches up to 1,000 (more past it), each scope by its own rows', async () => {
    const owner = await newOwner(t.app);
    const form = await createForm(owner);
    await t.db.db.execute(sql`insert into verifications
        (account_id, verify_form_id, cell_phone, verify_form_name, verification_method, created_at)
      select ${owner.accountId}, ${form.id}, '+1201555' || lpad((i % 3)::text, 4, '0'), ${form.name}, 'sms', now()
      from generate_series(1, 1001) i`);
    const account = await placed(owner, { scope: 'account', reason: 'Everything' });
    expect(account.reaches).toEqual({ verifications: 1000, more: true });
    const byForm = await placed(owner, { scope: 'form', formId: form.id, reason: 'The form' });
    expect(byForm.reaches).toEqual({ verifications: 1000, more: true });
    const byNumber = await placed(owner, {
      scope: 'identifier',
      phone: '+12015550001',
      reason: 'One number',
    });
    expect(byNumber.reaches).toEqual({ verifications: 334, more: false });
  });

  it('refuses a body whose fields do not fit its scope, naming the field (400, nothing stored)', async () => {
    const owner = await newOwner(t.app);
    const form = await createForm(owner);
    const bad: [Record<string, unknown>, string][] = [
      [{ scope: 'account' }, 'reason'],
      [{ scope: 'account', reason: '' }, 'reason'],
      [{ scope: 'account', reason: 'x'.repeat(501) }, 'reason'],
      [{ scope: 'account', reason: 'a\u0007bell' }, 'reason'],
      [{ scope: 'account', reason: '\ud800' }, 'reason'],
      [{ scope: 'account', reason: 12 }, 'reason'],
      [{ scope: 'everything', reason: 'r' }, 'scope'],
      [{ reason: 'r' }, 'scope'],
      [{ scope: 'account', formId: form.id, reason: 'r' }, 'formId'],
      [{ scope: 'form', reason: 'r' }, 'formId'],
      [{ scope: 'form', formId: 'one', reason: 'r' }, 'formId'],
      [{ scope: 'form', formId: form.id, phone: '+12015550111', reason: 'r' }, 'phone'],
      [{ scope: 'identifier', reason: 'r' }, 'phone'],
      [{ scope: 'identifier', phone: '+12015550111', email: 'a@example.com', reason: 'r' }, 'phone'],
      [{ scope: 'identifier', phone: '12', reason: 'r' }, 'phone'],
      [{ scope: 'identifier', email: 'not-an-address', reason: 'r' }, 'email'],
      [{ scope: 'verification', reason: 'r' }, 'verificationId'],
      [{ scope: 'verification', verificationId: 1.5, reason: 'r' }, 'verificationId'],
    ];
    for (const [body, field] of bad) {
      const response = await place(owner, owner.accountId, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(response.json()), JSON.stringify(body)).toContain(field);
    }
    expect((await list(owner, owner.accountId)).count).toBe(0);
  });

  it("another account's form, verification or hold answers as unknown; members read but do not place or release", async () => {
    const owner = await newOwner(t.app);
    const stranger = await newOwner(t.app);
    const theirForm = await createForm(stranger);
    const theirVerification = await insertVerification(t, theirForm);
    const theirHold = await placed(stranger, { scope: 'account', reason: 'Theirs' });

    const form = await place(owner, owner.accountId, { scope: 'form', formId: theirForm.id, reason: 'r' });
    expect(form.statusCode).toBe(400);
    expect(form.json()).toMatchObject({ formId: ['No form with this id in this account.'] });
    const verification = await place(owner, owner.accountId, {
      scope: 'verification',
      verificationId: theirVerification.id,
      reason: 'r',
    });
    expect(verification.json()).toMatchObject({
      verificationId: ['No verification with this id in this account.'],
    });
    expect((await owner.c.get(`/api/legal-holds/${theirHold.id}`)).statusCode).toBe(404);
    expect((await release(owner, theirHold.id)).statusCode).toBe(404);
    expect((await place(owner, stranger.accountId, { scope: 'account', reason: 'r' })).statusCode).toBe(404);

    const searcher = await join(t.app, owner, { canSearchData: true });
    const plain = await join(t.app, owner, { canSearchData: false });
    const hold = await placed(owner, { scope: 'account', reason: 'Ours' });
    expect((await list(searcher, owner.accountId)).results.map((h) => h.id)).toEqual([hold.id]);
    expect((await plain.c.get(`/api/legal-holds?account=${owner.accountId}`)).statusCode).toBe(403);
    expect((await place(searcher, owner.accountId, { scope: 'account', reason: 'r' })).statusCode).toBe(403);
    expect((await release(searcher, hold.id)).statusCode).toBe(403);
    expect((await list(owner, owner.accountId)).results[0]?.status).toBe('active');
  });

  it('released once with a reason: audited and sent; a second release is 409; the list puts active first', async () => {
    const owner = await newOwner(t.app);
    const first = await placed(owner, { scope: 'account', reason: 'First' });
    t.clock.advance(MINUTE);
    const second = await placed(owner, { scope: 'account', reason: 'Second' });
    t.clock.advance(MINUTE);

    const released = await release(owner, first.id, '  Case settled  ');
    expect(released.statusCode, released.body).toBe(200);
    expect(released.json<LegalHold>()).toMatchObject({
      status: 'released',
      releasedBy: owner.email,
      releasedAt: t.clock.now().toISOString(),
      releaseReason: 'Case settled',
      reaches: null,
    });
    const again = await release(owner, first.id);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ detail: 'This hold was already released.', MainCode_: 'conflict' });
    expect((await release(owner, first.id, '')).statusCode).toBe(400);

    expect((await list(owner, owner.accountId)).results.map((h) => h.id)).toEqual([second.id, first.id]);
    expect((await list(owner, owner.accountId, '&status=released')).results.map((h) => h.id)).toEqual([
      first.id,
    ]);
    expect((await list(owner, owner.accountId, '&status=active')).results.map((h) => h.id)).toEqual([
      second.id,
    ]);
    const paged = await list(owner, owner.accountId, '&pageSize=1&pageNumber=2');
    expect([paged.count, paged.results.map((h) => h.id)]).toEqual([2, [first.id]]);
    expect((await eventsOf(owner.accountId)).map((e) => e.type)).toEqual([
      'legal_hold.placed',
      'legal_hold.placed',
      'legal_hold.released',
    ]);
    expect((await auditOf(owner.accountId)).map((e) => e.action)).toEqual([
      'legal_hold.placed',
      'legal_hold.placed',
      'legal_hold.released',
    ]);
  });

  it('20 releases of one hold at once, by two owners: one 200, nineteen 409, one event, one audit event', async () => {
    const owner = await newOwner(t.app);
    const coOwner = await join(t.app, owner, { role: 'owner' });
    const hold = await placed(owner, { scope: 'account', reason: 'Litigation' });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => release(i % 2 === 0 ? owner : coOwner, hold.id, `Release ${i}`)),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, ...Array(19).fill(409)]);
    expect((await eventsOf(owner.accountId)).map((e) => e.type)).toEqual([
      'legal_hold.placed',
      'legal_hold.released',
    ]);
    expect((await auditOf(owner.accountId)).map((e) => e.action)).toEqual([
      'legal_hold.placed',
      'legal_hold.released',
    ]);
  });

  it('redacting held evidence answers 409 naming the hold and its reason; once released, the redaction goes through', async () => {
    const owner = await newOwner(t.app);
    const form = await createForm(owner);
    const verification = await insertVerification(t, form, { cellPhone: '+12015550133' });
    const hold = await placed(owner, { scope: 'identifier', phone: '+12015550133', reason: 'Smith v. Acme' });

    const refused = await redact(owner, verification.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      detail: `This verification is under legal hold ${hold.id} (“Smith v. Acme”): its evidence cannot be redacted until the hold is released.`,
      MainCode_: 'conflict',
    });
    const [kept] = await t.db.db
      .select({ cellPhone: schema.verifications.cellPhone, redactedAt: schema.verifications.redactedAt })
      .from(schema.verifications)
      .where(eq(schema.verifications.id, verification.id));
    expect(kept).toEqual({ cellPhone: '+12015550133', redactedAt: null });
    const redactions = await t.db.db
      .select()
      .from(schema.auditEvents)
      .where(
        and(
          eq(schema.auditEvents.accountId, owner.accountId),
          eq(schema.auditEvents.action, 'verification.redacted'),
        ),
      );
    expect(redactions).toEqual([]);

    expect((await release(owner, hold.id)).statusCode).toBe(200);
    const redacted = await redact(owner, verification.id);
    expect(redacted.statusCode, redacted.body).toBe(200);
    expect(redacted.json<VerificationDetail>()).toMatchObject({ heldBy: [], holds: [] });
  });

  it('a redaction racing a hold on the same number: either the hold is refused nothing and the redaction 409s, or the redaction ran first', async () => {
    const owner = await newOwner(t.app);
    const form = await createForm(owner);
    const verifications = await Promise.all(
      Array.from({ length: 6 }, (_, i) => insertVerification(t, form, { cellPhone: `+1201555014${i}` })),
    );
    const answers = await Promise.all([
      ...verifications.map((v) => redact(owner, v.id)),
      place(owner, owner.accountId, { scope: 'account', reason: 'Now' }),
    ]);
    expect(answers.at(-1)?.statusCode).toBe(201);
    // Whatever was redacted was redacted before the hold; whatever the hold found unredacted is still whole.
    const rows = await t.db.db
      .select({ redactedAt: schema.verifications.redactedAt, cellPhone: schema.verifications.cellPhone })
      .from(schema.verifications)
      .where(eq(schema.verifications.accountId, owner.accountId));
    const statuses = answers.slice(0, -1).map((a) => a.statusCode);
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    expect(rows.filter((r) => r.redactedAt !== null)).toHaveLength(statuses.filter((s) => s === 200).length);
    expect(
      rows.filter((r) => r.redactedAt === null).every((r) => r.cellPhone.startsWith('+1201555014')),
    ).toBe(true);
  });

  it('a redaction waits for a hold being placed on its account, then sees it and refuses (the hold lock)', async () => {
    const owner = await newOwner(t.app);
    const form = await createForm(owner);
    const verification = await insertVerification(t, form, { cellPhone: '+12015550155' });
    let redaction: ReturnType<typeof redact> | undefined;
    await transaction(t.db.db, async (tx) => {
      // A hold's placement, caught between its lock and its commit: the redaction starts meanwhile.
      await lockLegalHolds(tx, owner.accountId);
      redaction = redact(owner, verification.id);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await tx.insert(schema.legalHolds).values({
        id: 'lh_placed_meanwhile',
        accountId: owner.accountId,
        scope: 'identifier',
        phone: '+12015550155',
        reason: 'Placed meanwhile',
        placedBy: owner.email,
        placedAt: t.clock.now(),
      });
    });
    const answer = await redaction;
    expect(answer?.statusCode, answer?.body).toBe(409);
    expect(answer?.json().detail).toContain('lh_placed_meanwhile');
    const [kept] = await t.db.db
      .select({ redactedAt: schema.verifications.redactedAt })
      .from(schema.verifications)
      .where(eq(schema.verifications.id, verification.id));
    expect(kept?.redactedAt).toBeNull();
  });

  it('API v1 verifications carry heldBy (the single read and the list)', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const verification = await verifyThroughApi(t, owner, form);
    const hold = await placed(owner, {
      scope: 'verification',
      verificationId: verification.id,
      reason: 'Audit',
    });
    t.clock.advance(MINUTE);
    const formHold = await placed(owner, { scope: 'form', formId: form.id, reason: 'Form audit' });
    const [attempt] = await t.db.db
      .select({ id: schema.verificationAttempts.id })
      .from(schema.verificationAttempts)
      .where(eq(schema.verificationAttempts.verificationId, verification.id));
    const { key } = await newApiKey(owner, ['verifications:read'], 'live');
    const api = apiV1(t.app, key);
    const one = await api.GET('/api/v1/verifications/{id}', { params: { path: { id: attempt?.id ?? '' } } });
    expect(one.data?.heldBy).toEqual([hold.id, formHold.id]);
    const page = await api.GET('/api/v1/verifications', {});
    expect(page.data?.data.map((v) => v.heldBy)).toEqual([[hold.id, formHold.id]]);

    expect((await release(owner, formHold.id)).statusCode).toBe(200);
    const after = await api.GET('/api/v1/verifications/{id}', {
      params: { path: { id: attempt?.id ?? '' } },
    });
    expect(after.data?.heldBy).toEqual([hold.id]);
  });
});
