import type { PrivacyRequest, PrivacyRequestList, VerifyForm } from '@veriform/contracts';
import { schema } from '@veriform/db';
import { and, asc, eq } from 'drizzle-orm';
import { strFromU8, unzipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { createJobWork, handlerOf } from '../../job-handlers.ts';
import { carryOutPrivacyRequest } from '../../jobs/definitions/carry-out-privacy-request.ts';
import { useTestApp } from '../../test-support/app.ts';
import { DAY, HOUR } from '../../test-support/clock.ts';
import { jobsOf, jobsSettled } from '../../test-support/jobs.ts';
import { insertRevocation } from '../../test-support/revocations.ts';
import { join, newOwner, type Owner } from '../../test-support/teams.ts';
import { approvedVerification, createForm, insertAttempt } from '../verifications/test-helpers.ts';
import { carriedOut, filed, read } from './test-helpers.ts';

/**
 * Data-subject requests in the app (issue #37 item 3): filed by owners, matched, due by their law, extended once,
 * carried out by one job (erasure meeting a legal hold restricts instead), the access bundle, the 24-month prune.
 */

const t = useTestApp();

const url = (owner: Owner, path = '') => `/api/privacy-requests${path}?account=${owner.accountId}`;

const file = (owner: Owner, body: Record<string, unknown>) => owner.c.post(url(owner), body);

async function placeHold(owner: Owner, values: Partial<typeof schema.legalHolds.$inferInsert>) {
  const id = `lh_test${Math.random().toString(36).slice(2)}`;
  await t.db.db.insert(schema.legalHolds).values({
    id,
    accountId: owner.accountId,
    scope: 'identifier',
    reason: 'Smith v. Acme, case 24-cv-101',
    placedBy: owner.email,
    placedAt: t.clock.now(),
    ...values,
  });
  return id;
}

async function auditActions(accountId: number) {
  const rows = await t.db.db
    .select({ action: schema.auditEvents.action, actorName: schema.auditEvents.actorName })
    .from(schema.auditEvents)
    .where(eq(schema.auditEvents.accountId, accountId))
    .orderBy(asc(schema.auditEvents.id));
  return rows.filter(
    (row) => row.action.startsWith('privacy_request.') || row.action === 'verification.redacted',
  );
}

type World = { owner: Owner; form: VerifyForm };
let w: World;

beforeAll(async () => {
  const owner = await newOwner(t.app);
  w = { owner, form: await createForm(owner) };
});

describe('filing a request', () => {
  it('is open, due by its law, its matches counted (verifications, attempts, revocations), audited', async () => {
    const phone = '+12015550181';
    const made = await approvedVerification(t, w.form, { phone });
    await approvedVerification(t, w.form, { phone: '+12015550182' });
    await insertAttempt(t, w.form, { cellPhone: phone, status: 'locked' });
    await insertRevocation(t.db.db, { accountId: w.owner.accountId, phone, receivedAt: t.clock.now() });
    const request = await filed(w.owner, {
      type: 'access',
      phones: ['(201) 555-0181'],
      emails: ['ANA@example.com'],
    });
    expect(request).toMatchObject({
      type: 'access',
      law: 'ccpa',
      status: 'open',
      overdue: false,
      phones: [phone],
      emails: ['ana@example.com'],
      identifiersMasked: false,
      requester: { name: 'Ana Díaz', email: null },
      extendable: true,
      filedBy: w.owner.email,
      // The approved verification's code, and the locked one; ana@example.com is the e-mail verification's address
      // of approvedVerification only when its method is e-mail.
      matches: { verifications: 1, attempts: 2, revocations: 1, webhookEvents: 0, deliveries: 0 },
      answer: null,
    });
    expect(request.id).toMatch(/^dsr_/);
    expect(new Date(request.dueAt).getTime() - new Date(request.receivedAt).getTime()).toBe(45 * DAY);
    expect(made.verificationId).toBeGreaterThan(0);
    expect((await auditActions(w.owner.accountId)).map((row) => row.action)).toContain(
      'privacy_request.filed',
    );
  });

  it('GDPR 30 days, other 30; receivedAt in the past counts from then', async () => {
    const receivedAt = new Date(t.clock.now().getTime() - 10 * DAY).toISOString();
    const gdpr = await filed(w.owner, { type: 'erasure', law: 'gdpr', phones: ['+12015550190'], receivedAt });
    expect(gdpr.receivedAt).toBe(receivedAt);
    expect(new Date(gdpr.dueAt).getTime() - new Date(receivedAt).getTime()).toBe(30 * DAY);
    const other = await filed(w.owner, { type: 'restriction', law: 'other', emails: ['x@example.com'] });
    expect(new Date(other.dueAt).getTime() - new Date(other.receivedAt).getTime()).toBe(30 * DAY);
  });

  it('bad input answers 400', async () => {
    const base = { type: 'access', law: 'ccpa', requester: { name: 'Ana' }, phones: ['+12015550100'] };
    const future = new Date(t.clock.now().getTime() + DAY).toISOString();
    for (const body of [
      { ...base, phones: [], emails: [] },
      { ...base, phones: ['not a phone'] },
      { ...base, type: 'delete' },
      { ...base, law: 'lgpd' },
      { ...base, requester: {} },
      { ...base, requester: { name: 'Ana', email: 'nope' } },
      { ...base, phones: [12015550100] },
      { ...base, receivedAt: future },
      { ...base, receivedAt: '0000-01-01T00:00:00Z' },
      { ...base, receivedAt: '1999-12-31T23:59:59Z' },
      { ...base, requester: { name: 'Ana\ud800' } },
      { ...base, emails: ['not-an-address'] },
      { ...base, phones: Array.from({ length: 21 }, (_, i) => `+1201555${String(1000 + i)}`) },
    ]) {
      const response = await file(w.owner, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
    const missing = await file(w.owner, {
      type: 'access',
      requester: { name: 'Ana' },
      phones: ['+12015550100'],
    });
    expect(missing.statusCode).toBe(400);
  });

  it('members and other accounts: 403 and 404', async () => {
    const request = await filed(w.owner, { type: 'access', phones: ['+12015550191'] });
    const member = await join(t.app, w.owner, { canSearchData: true, canViewReports: true });
    expect((await member.c.get(`/api/privacy-requests?account=${w.owner.accountId}`)).statusCode).toBe(403);
    expect((await member.c.get(`/api/privacy-requests/${request.id}`)).statusCode).toBe(403);
    const stranger = await newOwner(t.app, 'Other Co');
    expect((await stranger.c.get(`/api/privacy-requests/${request.id}`)).statusCode).toBe(404);
    expect((await stranger.c.post(`/api/privacy-requests/${request.id}/carry-out`, {})).statusCode).toBe(404);
    expect(
      (await stranger.c.post(`/api/privacy-requests/${request.id}/extend`, { reason: 'x' })).statusCode,
    ).toBe(404);
    expect((await stranger.c.get(`/api/privacy-requests/${request.id}/bundle`)).statusCode).toBe(404);
    expect((await stranger.c.get(`/api/privacy-requests/dsr_nope`)).statusCode).toBe(404);
  });
});

describe('due dates', () => {
  it('extends once by its law (CCPA 45, GDPR 60); a second extension answers 400; overdue with the clock', async () => {
    const owner = await newOwner(t.app, 'Due Co');
    const ccpa = await filed(owner, { type: 'access', phones: ['+12015550192'] });
    const extend = (id: string, reason: string) =>
      owner.c.post(`/api/privacy-requests/${id}/extend`, { reason });
    const once = await extend(ccpa.id, 'The records are in three systems.');
    expect(once.statusCode, once.body).toBe(200);
    const extended = once.json<PrivacyRequest>();
    expect(new Date(extended.dueAt).getTime() - new Date(ccpa.dueAt).getTime()).toBe(45 * DAY);
    expect(extended).toMatchObject({
      extendable: false,
      extensionReason: 'The records are in three systems.',
    });
    expect((await extend(ccpa.id, 'again')).statusCode).toBe(400);
    expect((await extend(ccpa.id, '')).statusCode).toBe(400);

    const gdpr = await filed(owner, { type: 'access', law: 'gdpr', phones: ['+12015550193'] });
    const gdprExtended = (await extend(gdpr.id, 'Complex request.')).json<PrivacyRequest>();
    expect(new Date(gdprExtended.dueAt).getTime() - new Date(gdpr.dueAt).getTime()).toBe(60 * DAY);

    const overdueIds = async () => {
      const response = await owner.c.get(`/api/privacy-requests?account=${owner.accountId}&status=overdue`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json<PrivacyRequestList>().results.map((r) => r.id);
    };
    expect(await overdueIds()).toEqual([]);
    // Received 30 days less an hour ago under the GDPR: due in an hour; two hours on, overdue.
    const late = await filed(owner, {
      type: 'access',
      law: 'gdpr',
      phones: ['+12015550194'],
      receivedAt: new Date(t.clock.now().getTime() - 30 * DAY + HOUR).toISOString(),
    });
    expect(late.overdue).toBe(false);
    t.clock.advance(2 * HOUR);
    expect((await read(owner, late.id)).overdue).toBe(true);
    expect(await overdueIds()).toEqual([late.id]);
    const all = (
      await owner.c.get(`/api/privacy-requests?account=${owner.accountId}`)
    ).json<PrivacyRequestList>();
    expect(all.count).toBe(3);
  });
});

describe('carrying out', () => {
  it('erasure redacts every match, except held evidence: restricted, and the answer names the hold', async () => {
    const owner = await newOwner(t.app, 'Erase Co');
    const form = await createForm(owner);
    const phone = '+12015550201';
    const free = await approvedVerification(t, form, { phone });
    const second = await approvedVerification(t, form, { phone });
    const other = await approvedVerification(t, form, { phone: '+12015550202' });
    const holdId = await placeHold(owner, { scope: 'verification', verificationId: second.verificationId });
    await insertRevocation(t.db.db, { accountId: owner.accountId, phone, receivedAt: t.clock.now() });
    const request = await filed(owner, {
      type: 'erasure',
      law: 'gdpr',
      phones: [phone],
      requester: { name: 'Ana', email: 'ana@example.com' },
    });
    expect(request.matches.verifications).toBe(2);

    const answered = await carriedOut(t.app, owner, request.id);
    expect(answered).toMatchObject({
      status: 'answered',
      identifiersMasked: true,
      requester: { name: 'Ana', email: 'a•••@example.com' },
      answer: {
        bundleReady: false,
        erased: 1,
        restricted: 1,
        revocationsKept: 1,
        holds: [{ id: holdId, reason: 'Smith v. Acme, case 24-cv-101', verifications: 1 }],
      },
    });
    expect(answered.phones).toEqual(['+1 ••• ••• 0201']);
    expect(answered.answer?.message).toContain(holdId);

    const rows = await t.db.db
      .select({ id: schema.verifications.id, redactedAt: schema.verifications.redactedAt })
      .from(schema.verifications)
      .where(eq(schema.verifications.accountId, owner.accountId))
      .orderBy(asc(schema.verifications.id));
    const redacted = new Map(rows.map((row) => [row.id, row.redactedAt !== null]));
    expect(redacted.get(free.verificationId)).toBe(true);
    expect(redacted.get(second.verificationId)).toBe(false);
    expect(redacted.get(other.verificationId)).toBe(false);
    const restrictions = await t.db.db
      .select()
      .from(schema.verificationRestrictions)
      .where(eq(schema.verificationRestrictions.accountId, owner.accountId));
    expect(restrictions.map((r) => [r.verificationId, r.privacyRequestId])).toEqual([
      [second.verificationId, request.id],
    ]);
    // The redaction's audit event names the request as its actor; the answer is audited too.
    const events = await auditActions(owner.accountId);
    expect(events).toContainEqual({
      action: 'verification.redacted',
      actorName: `Privacy request ${request.id}`,
    });
    expect(events).toContainEqual({
      action: 'privacy_request.answered',
      actorName: `Privacy request ${request.id}`,
    });
    // Answered: no second carry-out, no extension.
    expect((await owner.c.post(`/api/privacy-requests/${request.id}/carry-out`, {})).statusCode).toBe(409);
    expect(
      (await owner.c.post(`/api/privacy-requests/${request.id}/extend`, { reason: 'x' })).statusCode,
    ).toBe(400);
  });

  it('restriction restricts every match and redacts nothing', async () => {
    const owner = await newOwner(t.app, 'Restrict Co');
    const form = await createForm(owner);
    const a = await approvedVerification(t, form, { phone: '+12015550211' });
    const b = await approvedVerification(t, form, { phone: '+12015550212' });
    const request = await filed(owner, { type: 'restriction', phones: ['+12015550211', '+12015550212'] });
    const consentOf = async () => {
      const response = await owner.c.post(`/api/contactability?account=${owner.accountId}`, {
        phone: '+12015550211',
        purpose: 'informational',
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{ consent: { verificationId: string } | null; reasons: { code: string }[] }>();
    };
    expect((await consentOf()).consent).not.toBeNull();
    const answered = await carriedOut(t.app, owner, request.id);
    // A restricted verification no longer stands as consent (GDPR art. 18).
    const after = await consentOf();
    expect(after.consent).toBeNull();
    expect(after.reasons.map((reason) => reason.code)).toContain('no_consent');
    expect(answered.answer).toMatchObject({ erased: 0, restricted: 2, holds: [] });
    const restricted = await t.db.db
      .select({ id: schema.verificationRestrictions.verificationId })
      .from(schema.verificationRestrictions)
      .where(eq(schema.verificationRestrictions.privacyRequestId, request.id))
      .orderBy(asc(schema.verificationRestrictions.verificationId));
    expect(restricted.map((r) => r.id)).toEqual([a.verificationId, b.verificationId]);
    const [row] = await t.db.db
      .select({ redactedAt: schema.verifications.redactedAt })
      .from(schema.verifications)
      .where(eq(schema.verifications.id, a.verificationId));
    expect(row?.redactedAt).toBeNull();
  });

  it('twenty carry-outs at once: one 202, one job, the rest 409', async () => {
    const owner = await newOwner(t.app, 'Race Co');
    const form = await createForm(owner);
    await approvedVerification(t, form, { phone: '+12015550221' });
    const request = await filed(owner, { type: 'erasure', phones: ['+12015550221'] });
    const before = (await jobsOf(t.app, 'carry-out-privacy-request')).length;
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => owner.c.post(`/api/privacy-requests/${request.id}/carry-out`, {})),
    );
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses.filter((s) => s === 202)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    await jobsSettled(t.app);
    const jobs = (await jobsOf(t.app, 'carry-out-privacy-request')).slice(before);
    expect(
      jobs.filter((job) => (job.data as { privacyRequestId: string }).privacyRequestId === request.id),
    ).toHaveLength(1);
    expect((await read(owner, request.id)).answer?.erased).toBe(1);
  });

  it('access: a ZIP of data.json and one CSV per kind, formula-safe; only for an answered access request', async () => {
    const owner = await newOwner(t.app, 'Access Co');
    const form = await createForm(owner);
    const phone = '+12015550231';
    const made = await approvedVerification(t, form, { phone });
    await insertRevocation(t.db.db, {
      accountId: owner.accountId,
      phone,
      words: '=HYPERLINK("x") STOP',
      receivedAt: t.clock.now(),
    });
    const request = await filed(owner, { type: 'access', phones: [phone] });
    expect((await owner.c.get(`/api/privacy-requests/${request.id}/bundle`)).statusCode).toBe(409);
    const answered = await carriedOut(t.app, owner, request.id);
    expect(answered.answer).toMatchObject({
      bundleReady: true,
      counts: { verifications: 1, attempts: 1, revocations: 1 },
    });
    expect(answered.answer).not.toHaveProperty('ids');

    const response = await owner.c.get(`/api/privacy-requests/${request.id}/bundle`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="privacy-request-${request.id}.zip"`,
    );
    const files = unzipSync(new Uint8Array(response.rawPayload));
    expect(Object.keys(files).sort()).toEqual([
      'attempts.csv',
      'data.json',
      'deliveries.csv',
      'revocations.csv',
      'verifications.csv',
      'webhook-events.csv',
    ]);
    const dataFile = files['data.json'];
    if (!dataFile) throw new Error('no data.json');
    const data = JSON.parse(strFromU8(dataFile)) as {
      verifications: { id: number; cellPhone: string }[];
      attempts: { id: string; cellPhone: string }[];
      revocations: { words: string }[];
    };
    expect(data.verifications.map((v) => [v.id, v.cellPhone])).toEqual([[made.verificationId, phone]]);
    expect(data.attempts.map((a) => [a.id, a.cellPhone])).toEqual([[made.attemptId, phone]]);
    expect(data.revocations.map((r) => r.words)).toEqual(['=HYPERLINK("x") STOP']);
    const revocationsCsv = files['revocations.csv'];
    if (!revocationsCsv) throw new Error('no revocations.csv');
    expect(strFromU8(revocationsCsv)).toContain(`"'=HYPERLINK(""x"") STOP"`);
    const verificationsCsv = files['verifications.csv'];
    if (!verificationsCsv) throw new Error('no verifications.csv');
    expect(strFromU8(verificationsCsv).split('\r\n')[1]).toContain(`'${phone}`);
    const events = await auditActions(owner.accountId);
    expect(events.map((e) => e.action)).toContain('privacy_request.bundle_downloaded');
  });
});

describe('an erasure racing a legal hold', () => {
  it('a hold placed while the job runs: each match is erased before it or restricted after it, never lost', async () => {
    const owner = await newOwner(t.app, 'Race Hold Co');
    const form = await createForm(owner);
    const phone = '+12015550251';
    const made = [];
    for (let i = 0; i < 30; i += 1) made.push(await approvedVerification(t, form, { phone }));
    const request = await filed(owner, { type: 'erasure', phones: [phone] });
    const started = await owner.c.post(`/api/privacy-requests/${request.id}/carry-out`, {});
    expect(started.statusCode).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const hold = await owner.c.post(`/api/legal-holds?account=${owner.accountId}`, {
      scope: 'identifier',
      phone,
      reason: 'Litigation hold, placed mid-erasure',
    });
    expect(hold.statusCode, hold.body).toBe(201);
    const holdId = hold.json<{ id: string }>().id;
    await jobsSettled(t.app);
    const answered = await read(owner, request.id);
    const rows = await t.db.db
      .select({ id: schema.verifications.id, redactedAt: schema.verifications.redactedAt })
      .from(schema.verifications)
      .where(eq(schema.verifications.accountId, owner.accountId));
    const restricted = new Set(
      (
        await t.db.db
          .select({ id: schema.verificationRestrictions.verificationId })
          .from(schema.verificationRestrictions)
          .where(eq(schema.verificationRestrictions.privacyRequestId, request.id))
      ).map((row) => row.id),
    );
    // Every match is exactly one of: redacted, or restricted (kept under the hold).
    for (const row of rows)
      expect(row.redactedAt !== null, `verification ${row.id}`).toBe(!restricted.has(row.id));
    expect(rows).toHaveLength(made.length);
    expect((answered.answer?.erased ?? 0) + (answered.answer?.restricted ?? 0)).toBe(made.length);
    if (restricted.size > 0)
      expect(answered.answer?.holds).toEqual([
        { id: holdId, reason: 'Litigation hold, placed mid-erasure', verifications: restricted.size },
      ]);
  });
});

describe('the 24-month prune', () => {
  it('removes requests filed more than 24 months ago, keeps the rest', async () => {
    const owner = await newOwner(t.app, 'Prune Co');
    const old = await filed(owner, { type: 'access', phones: ['+12015550241'] });
    await t.db.db
      .update(schema.privacyRequests)
      .set({ createdAt: new Date(t.clock.now().getTime() - 740 * DAY) })
      .where(eq(schema.privacyRequests.id, old.id));
    const recent = await filed(owner, { type: 'access', phones: ['+12015550242'] });
    const deleted = await t.app.services.privacyRequests.prune();
    expect(deleted).toBeGreaterThanOrEqual(1);
    const left = await t.db.db
      .select({ id: schema.privacyRequests.id })
      .from(schema.privacyRequests)
      .where(and(eq(schema.privacyRequests.accountId, owner.accountId)));
    expect(left.map((r) => r.id)).toEqual([recent.id]);
  });

  it('a carry-out whose last try fails goes back to open, audited; an earlier failed try leaves it running', async () => {
    const owner = await newOwner(t.app, 'Failing Co');
    const form = await createForm(owner);
    await approvedVerification(t, form, { phone: '+12015550241' });
    const request = await filed(owner, { type: 'erasure', phones: ['+12015550241'] });
    await t.db.db
      .update(schema.privacyRequests)
      .set({ status: 'running', runningSince: new Date() })
      .where(eq(schema.privacyRequests.id, request.id));
    // The database refuses this request's answer: the job's work fails at its last step, as a crash there would.
    await t.db.executeSql(
      "CREATE FUNCTION refuse_answer() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$",
    );
    await t.db.executeSql(
      `CREATE TRIGGER refuse_answer BEFORE UPDATE ON privacy_requests FOR EACH ROW WHEN (NEW.status = 'answered' AND NEW.id = '${request.id}') EXECUTE FUNCTION refuse_answer()`,
    );
    /** Runs one try of the job; answers what it threw (the database's refusal, under Drizzle's "Failed query"). */
    const failedTry = (retryCount: number) =>
      handlerOf(createJobWork(t.app.services, t.db.executeSql), carryOutPrivacyRequest.name)
        .run(
          { privacyRequestId: request.id },
          {
            log: t.app.log,
            job: {
              id: 'test',
              name: carryOutPrivacyRequest.name,
              retryCount,
              retryLimit: 3,
              createdOn: new Date(),
            },
          },
        )
        .then(
          () => '(no failure)',
          (error: unknown) => String(error instanceof Error ? error.cause : error),
        );
    try {
      expect(await failedTry(0)).toMatch(/injected failure/);
      expect((await read(owner, request.id)).status).toBe('running');
      expect(await failedTry(3)).toMatch(/injected failure/);
      const reopened = await read(owner, request.id);
      expect(reopened.status).toBe('open');
      expect(reopened.answer).toBeNull();
      const actions = (await auditActions(owner.accountId)).map((row) => row.action);
      expect(actions.filter((action) => action === 'privacy_request.carry_out_failed')).toHaveLength(1);
    } finally {
      await t.db.executeSql('DROP TRIGGER refuse_answer ON privacy_requests');
      await t.db.executeSql('DROP FUNCTION refuse_answer()');
    }
    // Open again: the owner carries it out once more, and this time it is answered.
    expect((await owner.c.post(`/api/privacy-requests/${request.id}/carry-out`, {})).statusCode).toBe(202);
    await jobsSettled(t.app);
    expect((await read(owner, request.id)).status).toBe('answered');
  });
});
