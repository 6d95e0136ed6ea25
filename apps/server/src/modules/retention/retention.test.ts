import type {
  AuditEvent,
  AuditEventList,
  CertificateCheck,
  LegalHold,
  PublicCertificate,
  RetentionPolicy,
  VerificationList,
  VerificationReport,
} from '@veriform/contracts';
import { schema } from '@veriform/db';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createJobWork, handlerOf } from '../../job-handlers.ts';
import { purgeExpiredEvidence as purgeJob } from '../../jobs/definitions/purge-expired-evidence.ts';
import { useTestApp } from '../../test-support/app.ts';
import { TestClient } from '../../test-support/client.ts';
import { DAY } from '../../test-support/clock.ts';
import { multipartBody } from '../../test-support/multipart.ts';
import { createPublicForm } from '../../test-support/public-verify.ts';
import { join, newOwner, nextIp, type Owner } from '../../test-support/teams.ts';
import { checkStoredChain } from '../certificates/redaction.ts';
import { certificateFile } from '../certificates/service.ts';
import {
  insertAttempt,
  insertVerification,
  setClock,
  verifyOnHostedPage,
} from '../verifications/test-helpers.ts';
import { nextPurgeAfter, purgeAccount, retentionCutoff } from './index.ts';

/**
 * The evidence retention policy and the daily purge (issue #37 item 1, ADR 45): `GET|PUT /api/accounts/{id}/retention`
 * (members read, owners change, below four years only with the TCPA warning confirmed), and the purge at a controlled
 * clock: what is past the policy goes in batches, holds keep theirs (also when placed while the purge runs), the counts
 * of the dashboard and the activity log stay, certificates become tombstones that still check as authentic, and the
 * chain still verifies.
 */

const t = useTestApp();
const {
  verifications,
  verificationAttempts,
  codeEntries,
  codeDeliveryEvents,
  formPageViews,
  verificationCertificates,
  legalHolds,
  retentionPurges,
  contactabilityChecks,
  lookups,
  webhookEvents,
} = schema;

const urlOf = (owner: Pick<Owner, 'accountId'>) => `/api/accounts/${owner.accountId}/retention`;
const YEAR = 365 * DAY;

/** PUT with the caller's session and CSRF token (the test client has no `put`). */
const put = (caller: { c: TestClient }, account: Pick<Owner, 'accountId'>, body: unknown) =>
  caller.c.request({ method: 'PUT', url: urlOf(account), body });

async function policyOf(owner: Owner): Promise<RetentionPolicy> {
  const response = await owner.c.get(urlOf(owner));
  expect(response.statusCode, response.body).toBe(200);
  return response.json<RetentionPolicy>();
}

async function auditOf(owner: Owner, action: string): Promise<AuditEvent[]> {
  const response = await owner.c.get(`/api/audit-events?account=${owner.accountId}&action=${action}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<AuditEventList>().results;
}

const runJob = () =>
  handlerOf(createJobWork(t.app.services, t.db.executeSql), purgeJob.name).run(
    {},
    {
      log: t.app.log,
      job: { id: 'test', name: purgeJob.name, retryCount: 0, retryLimit: 0, createdOn: new Date() },
    },
  );

const deps = () => ({ db: t.db.db, clock: t.clock, audit: t.app.services.audit });

async function placeHold(
  accountId: number,
  hold: { scope: 'account' | 'form' | 'identifier' | 'verification' } & Partial<
    Pick<typeof legalHolds.$inferInsert, 'verifyFormId' | 'phone' | 'email' | 'verificationId'>
  >,
): Promise<string> {
  const id = `lh_${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;
  await t.db.db.insert(legalHolds).values({
    id,
    accountId,
    reason: 'Litigation: Doe v. Acme',
    placedBy: 'owner@example.com',
    placedAt: t.clock.now(),
    ...hold,
  });
  return id;
}

const idsOf = async (accountId: number) =>
  (
    await t.db.db
      .select({ id: verifications.id })
      .from(verifications)
      .where(eq(verifications.accountId, accountId))
      .orderBy(verifications.id)
  ).map((row) => row.id);

describe('the cut-off', () => {
  it('is whole calendar years before, in UTC; Feb 29 becomes Feb 28 (never a day early)', () => {
    expect(retentionCutoff(new Date('2031-06-15T10:00:00Z'), 5).toISOString()).toBe(
      '2026-06-15T10:00:00.000Z',
    );
    expect(retentionCutoff(new Date('2028-02-29T04:23:00Z'), 1).toISOString()).toBe(
      '2027-02-28T04:23:00.000Z',
    );
    expect(retentionCutoff(new Date('2028-02-29T04:23:00Z'), 4).toISOString()).toBe(
      '2024-02-29T04:23:00.000Z',
    );
    expect(retentionCutoff(new Date('2029-03-01T00:00:00Z'), 1).toISOString()).toBe(
      '2028-03-01T00:00:00.000Z',
    );
  });

  it('the next purge is today at 04:23 UTC, or tomorrow once that has passed', () => {
    expect(nextPurgeAfter(new Date('2026-11-30T01:00:00Z')).toISOString()).toBe('2026-11-30T04:23:00.000Z');
    expect(nextPurgeAfter(new Date('2026-11-30T04:23:00Z')).toISOString()).toBe('2026-12-01T04:23:00.000Z');
    expect(nextPurgeAfter(new Date('2026-12-31T23:00:00Z')).toISOString()).toBe('2027-01-01T04:23:00.000Z');
  });
});

describe('GET|PUT /api/accounts/{id}/retention', () => {
  it('reads 5 years by default; owners change it, each change one account.updated event', async () => {
    const owner = await newOwner(t.app, 'Retention Co');
    const first = await policyOf(owner);
    expect(first).toEqual({
      years: 5,
      confirmBelowFour: false,
      belowFourConfirmedAt: null,
      cutoff: retentionCutoff(nextPurgeAfter(t.clock.now()), 5).toISOString(),
      nextPurgeAt: nextPurgeAfter(t.clock.now()).toISOString(),
      lastPurge: null,
    });

    const seven = await put(owner, owner, { years: 7 });
    expect(seven.statusCode, seven.body).toBe(200);
    expect(seven.json<RetentionPolicy>()).toMatchObject({ years: 7, confirmBelowFour: false });
    // The same again records nothing.
    expect((await put(owner, owner, { years: 7 })).statusCode).toBe(200);

    const refused = await put(owner, owner, { years: 3 });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain("TCPA's four-year limitation period");
    expect(refused.body).toContain('28 U.S.C. §1658(a)');
    expect(refused.json()).toMatchObject({ confirmBelowFour: [expect.stringContaining('confirmBelowFour')] });
    expect((await policyOf(owner)).years).toBe(7);

    const three = await put(owner, owner, { years: 3, confirmBelowFour: true });
    expect(three.statusCode, three.body).toBe(200);
    expect(three.json<RetentionPolicy>()).toMatchObject({
      years: 3,
      confirmBelowFour: true,
      belowFourConfirmedAt: t.clock.now().toISOString(),
    });
    const four = await put(owner, owner, { years: 4 });
    expect(four.json<RetentionPolicy>()).toMatchObject({
      years: 4,
      confirmBelowFour: false,
      belowFourConfirmedAt: null,
    });

    const changes = (await auditOf(owner, 'account.updated')).map((event) => event.changes);
    expect(changes.slice(0, 3)).toEqual([
      { retentionYears: [3, 4] },
      { retentionYears: [7, 3] },
      { retentionYears: [5, 7] },
    ]);
  });

  it('400 for bad input; members read but may not change it (403); another account is 404', async () => {
    const owner = await newOwner(t.app);
    for (const body of [
      {},
      { years: 0 },
      { years: 11 },
      { years: '5' },
      { years: 4.5 },
      { years: null },
      { years: 5, confirmBelowFour: 'yes' },
      { years: 5, extra: true },
      { years: 2, confirmBelowFour: false },
    ]) {
      const response = await put(owner, owner, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
    const lone = await owner.c.request({
      method: 'PUT',
      url: urlOf(owner),
      rawBody: '{"years": 5, "confirmBelowFour": "\\ud800"}',
    });
    expect(lone.statusCode).toBe(400);

    const member = await join(t.app, owner);
    expect((await member.c.get(urlOf(owner))).statusCode).toBe(200);
    expect((await put(member, owner, { years: 6 })).statusCode).toBe(403);

    const stranger = await newOwner(t.app);
    expect((await stranger.c.get(urlOf(owner))).statusCode).toBe(404);
    expect((await put(stranger, owner, { years: 6 })).statusCode).toBe(404);
    expect((await policyOf(owner)).years).toBe(5);
  });
});

/** A form and its verifications: one made on the hosted page (attempts, page view, code entries, delivery events). */
async function evidence(owner: Owner) {
  const form = await createPublicForm(owner, { name: 'Loans' });
  const hosted = await verifyOnHostedPage(t, form);
  const certificate = await t.app.services.certificates.issue(owner.accountId, hosted.id);
  return { form, hosted, certificate };
}

async function visitor(): Promise<TestClient> {
  const c = new TestClient(t.app, nextIp());
  await c.fetchCsrf();
  return c;
}

const listCount = async (owner: Owner) => {
  const response = await owner.c.get(`/api/verifications?account=${owner.accountId}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<VerificationList>().count;
};

describe('the daily purge', () => {
  it('removes what is past the policy, keeps the counts, and leaves certificates that still check as authentic', async () => {
    // Rows are stamped by the database's clock or the app's: both are now here.
    const owner = await newOwner(t.app, 'Purged Co');
    const today = t.clock.now();
    const dayOf = (offset: number) => new Date(today.getTime() + offset * DAY).toISOString().slice(0, 10);
    const { form, hosted, certificate } = await evidence(owner);
    const other = await insertVerification(t, form);
    const otherCertificate = await t.app.services.certificates.issue(owner.accountId, other.id);
    const attemptIds = (
      await t.db.db
        .select({ id: verificationAttempts.id })
        .from(verificationAttempts)
        .where(eq(verificationAttempts.accountId, owner.accountId))
    ).map((row) => row.id);
    expect(attemptIds.length).toBeGreaterThan(0);
    // A line-type answer no attempt names, and the webhook events the verification's steps made.
    await t.db.db.insert(lookups).values({
      accountId: owner.accountId,
      kind: 'lineType',
      phone: hosted.cellPhone,
      status: 'answered',
      provider: 'twilio',
      answer: { line_type_intelligence: { type: 'mobile' } },
      lineType: 'mobile',
      askedAt: t.clock.now(),
      answeredAt: t.clock.now(),
    });
    const eventsBefore = await t.db.db
      .select({ id: webhookEvents.id })
      .from(webhookEvents)
      .where(eq(webhookEvents.accountId, owner.accountId));
    expect(eventsBefore.length).toBeGreaterThan(0);
    await t.db.db.insert(contactabilityChecks).values({
      accountId: owner.accountId,
      isTest: false,
      askedBy: owner.email,
      phone: hosted.cellPhone,
      channel: 'sms',
      purpose: 'marketing',
      at: t.clock.now(),
      allowed: true,
      reasons: [],
      rulesVersion: '1',
      checkedAt: t.clock.now(),
    });
    const file = Buffer.from(certificateFile(certificate), 'utf8');
    const report = `/api/verifications/report?account=${owner.accountId}&created__date__preset=custom&created__date__gte=${dayOf(-1)}&created__date__lte=${dayOf(1)}&tz=UTC`;
    const reportBefore = (await owner.c.get(report)).json<VerificationReport>();
    expect(await listCount(owner)).toBe(2);

    // Four years and a day later: nothing is due under the default five.
    t.clock.advance(4 * YEAR + DAY);
    expect(await runJob()).toMatchObject({ outcome: 'purged' });
    expect(await idsOf(owner.accountId)).toEqual([hosted.id, other.id]);

    // A verification made now stays whatever happens to the old ones.
    const fresh = await insertVerification(t, form);
    t.clock.advance(YEAR + 2 * DAY);
    await owner.c.login(owner.email, owner.password);
    expect(await runJob()).toMatchObject({ outcome: 'purged', accounts: expect.any(Number) });
    expect(await idsOf(owner.accountId)).toEqual([fresh.id]);

    const left = (table: typeof verificationAttempts | typeof formPageViews) =>
      t.db.db.select().from(table).where(eq(table.accountId, owner.accountId));
    expect(await left(verificationAttempts)).toEqual([]);
    // Page views stay for the funnel's counts, without the visitor's IP address and browser.
    const views = await left(formPageViews);
    expect(views.length).toBeGreaterThan(0);
    for (const view of views) expect(view).toMatchObject({ ip: null, userAgent: null });
    expect(
      await t.db.db.select().from(codeEntries).where(inArray(codeEntries.attemptId, attemptIds)),
    ).toEqual([]);
    expect(
      await t.db.db
        .select()
        .from(codeDeliveryEvents)
        .where(inArray(codeDeliveryEvents.attemptId, attemptIds)),
    ).toEqual([]);
    expect(
      await t.db.db
        .select()
        .from(contactabilityChecks)
        .where(eq(contactabilityChecks.accountId, owner.accountId)),
    ).toEqual([]);
    expect(await t.db.db.select().from(lookups).where(eq(lookups.accountId, owner.accountId))).toEqual([]);
    // Only the events of what happened since (the fresh verification's certificate…) are left.
    expect(
      (
        await t.db.db
          .select({ id: webhookEvents.id })
          .from(webhookEvents)
          .where(eq(webhookEvents.accountId, owner.accountId))
      ).filter((event) => eventsBefore.some((before) => before.id === event.id)),
    ).toEqual([]);

    // The tombstones: hash, signature and chain link kept, content and salt gone.
    const [tombstone] = await t.db.db
      .select()
      .from(verificationCertificates)
      .where(eq(verificationCertificates.id, certificate.id));
    expect(tombstone).toMatchObject({
      content: null,
      unlockSalt: null,
      sha256: certificate.sha256,
      signature: certificate.signature,
      prevHash: certificate.prevHash,
      purgedAt: t.clock.now(),
    });
    expect(await checkStoredChain(t.db.db, owner.accountId)).toMatchObject({ ok: true, count: 2 });
    // A new certificate still chains on after the tombstones.
    await t.app.services.certificates.issue(owner.accountId, fresh.id);
    expect(await checkStoredChain(t.db.db, owner.accountId)).toMatchObject({ ok: true, count: 3 });

    // The counts: the activity log's total and the dashboard's report of the purged month as they were.
    expect(await listCount(owner)).toBe(3);
    expect((await owner.c.get(report)).json<VerificationReport>()).toEqual(reportBefore);

    // The public page and the file check: authentic, its content removed under the retention policy.
    const anyone = await visitor();
    const page = await anyone.get(`/api/public/certificates/${certificate.id}`);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json<PublicCertificate>()).toMatchObject({
      status: 'purged',
      purgedAt: t.clock.now().toISOString(),
      certificate: null,
      signature: { value: certificate.signature },
    });
    const checked = await anyone.postMultipart(
      '/api/public/certificates/verify',
      multipartBody([{ name: 'file', filename: 'c.json', contentType: 'application/json', data: file }]),
    );
    expect(checked.statusCode, checked.body).toBe(200);
    expect(checked.json<CertificateCheck>()).toMatchObject({
      verdict: 'authentic',
      certificateId: certificate.id,
      standing: { status: 'purged', purgedAt: t.clock.now().toISOString() },
    });
    const unlock = await anyone.post(`/api/public/certificates/${otherCertificate.id}/unlock`, {
      cellPhone: other.cellPhone,
    });
    expect(unlock.statusCode).toBe(404);
    expect(unlock.body).toContain('retention policy');

    // The record: one purge row and one audit event, counts only.
    const policy = await policyOf(owner);
    expect(policy.lastPurge).toMatchObject({
      ranAt: t.clock.now().toISOString(),
      years: 5,
      held: 0,
      removed: {
        verifications: 2,
        certificates: 2,
        pageViews: 1,
        contactabilityChecks: 1,
        lookups: 1,
        webhookEvents: eventsBefore.length,
      },
    });
    expect(policy.lastPurge?.removed.attempts).toBe(attemptIds.length);
    const [purged] = await auditOf(owner, 'retention.purged');
    expect(purged).toMatchObject({
      actor: { type: 'system' },
      changes: { retentionYears: 5, held: 0, removed: { verifications: 2 } },
    });
    expect(JSON.stringify(purged)).not.toContain(hosted.cellPhone);

    // The next day's run finds nothing and records nothing.
    t.clock.advance(DAY);
    await runJob();
    expect(
      await t.db.db.select().from(retentionPurges).where(eq(retentionPurges.accountId, owner.accountId)),
    ).toHaveLength(1);
  });

  it('a policy change takes effect at the next run; a hold placed between two purges keeps its evidence', async () => {
    setClock(t, '2026-05-01T12:00:00Z');
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const otherForm = await createPublicForm(owner, { name: 'Other' });
    const day = (n: number) => ({ createdAt: new Date(Date.UTC(2026, 4, 1 + n, 12)) });
    await insertVerification(t, form, day(0));
    const b = await insertVerification(t, form, { ...day(1), cellPhone: '+12015550111' });
    const c = await insertVerification(t, otherForm, day(2));
    const d = await insertVerification(t, form, { ...day(3), cellPhone: '+12015550111' });
    const e = await insertVerification(t, form, day(4));
    // A year and a month later: not yet due at the first purge.
    const g = await insertVerification(t, form, { createdAt: new Date('2027-06-01T12:00:00Z') });

    // Two years on: nothing under five years; the owner shortens it to one, confirming the warning.
    t.clock.advance(2 * YEAR);
    await owner.c.login(owner.email, owner.password);
    expect((await purgeAccount(deps(), { accountId: owner.accountId, years: 5 })).removed.verifications).toBe(
      0,
    );
    expect((await put(owner, owner, { years: 1, confirmBelowFour: true })).statusCode).toBe(200);

    // A hold on one number placed before the run; the run takes a: the rest is held (b, d by number, c by form).
    const byNumber = await placeHold(owner.accountId, { scope: 'identifier', phone: '+12015550111' });
    await placeHold(owner.accountId, { scope: 'form', verifyFormId: otherForm.id });
    await placeHold(owner.accountId, { scope: 'verification', verificationId: e.id });
    const first = await purgeAccount(deps(), { accountId: owner.accountId, years: 1 }, 2);
    expect(first.removed.verifications).toBe(1);
    expect(first.held).toBe(4);
    expect(first.cutoff.getTime()).toBeLessThan(new Date('2027-06-01T12:00:00Z').getTime());
    expect(await idsOf(owner.accountId)).toEqual([b.id, c.id, d.id, e.id, g.id]);

    // Between two purges: the number's hold is released, and the owner places one on g through the app.
    await t.db.db
      .update(legalHolds)
      .set({ releasedAt: t.clock.now(), releasedBy: 'owner@example.com', releaseReason: 'Settled' })
      .where(eq(legalHolds.id, byNumber));
    const placed = await owner.c.post(`/api/legal-holds?account=${owner.accountId}`, {
      scope: 'verification',
      verificationId: g.id,
      reason: 'Subpoena',
    });
    expect(placed.statusCode, placed.body).toBe(201);
    // Forty days later g is past the policy too: the purge takes b and d, and keeps c, e and g.
    t.clock.advance(40 * DAY);
    const second = await purgeAccount(deps(), { accountId: owner.accountId, years: 1 });
    expect(second).toMatchObject({ removed: { verifications: 2 }, held: 3 });
    expect(await idsOf(owner.accountId)).toEqual([c.id, e.id, g.id]);
  });

  it('a hold on the whole account keeps all of it, its old codes included, and the purge walks nothing', async () => {
    setClock(t, '2026-08-01T12:00:00Z');
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    await insertVerification(t, form);
    await insertVerification(t, form);
    await insertAttempt(t, form, { verificationId: null });
    t.clock.advance(6 * YEAR);
    await placeHold(owner.accountId, { scope: 'account' });
    const purge = await purgeAccount(deps(), { accountId: owner.accountId, years: 5 });
    expect(purge.held).toBe(2);
    expect(Object.values(purge.removed).every((n) => n === 0)).toBe(true);
    expect(await idsOf(owner.accountId)).toHaveLength(2);
    expect(
      await t.db.db
        .select({ id: verificationAttempts.id })
        .from(verificationAttempts)
        .where(eq(verificationAttempts.accountId, owner.accountId)),
    ).toHaveLength(1);
  });

  it('codes no verification names go a day after the cut-off, so a visit is not split from its kept verification', async () => {
    setClock(t, '2026-07-01T12:00:00Z');
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const at = (iso: string) => ({ createdAt: new Date(iso), verificationId: null });
    await insertAttempt(t, form, { id: 'att_old_unlinked', ...at('2026-06-20T12:00:00Z') });
    await insertAttempt(t, form, {
      id: 'att_visit_replaced',
      status: 'replaced',
      ...at('2026-07-01T11:50:00Z'),
    });
    await insertVerification(t, form, { createdAt: new Date('2026-07-01T12:05:00Z') });
    // One year later to the minute, plus one: the verification (12:05) is kept; its visit's code (11:50) too.
    setClock(t, '2027-07-01T12:01:00Z');
    const purge = await purgeAccount(deps(), { accountId: owner.accountId, years: 1 });
    expect(purge.removed).toMatchObject({ verifications: 0, attempts: 1 });
    const left = await t.db.db
      .select({ id: verificationAttempts.id })
      .from(verificationAttempts)
      .where(eq(verificationAttempts.accountId, owner.accountId));
    expect(left.map((row) => row.id)).toEqual(['att_visit_replaced']);
  });

  it('delivery callbacks that never found their message a day on go, with no account to ask; a younger one waits', async () => {
    setClock(t, '2026-07-01T12:00:00Z');
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    await insertAttempt(t, form, { id: 'att_with_events', createdAt: t.clock.now(), verificationId: null });
    const event = (providerMessageId: string, at: string, attemptId: string | null = null) => ({
      attemptId,
      status: 'delivered' as const,
      at: new Date(at),
      providerMessageId,
    });
    await t.db.db.insert(codeDeliveryEvents).values([
      event('SM_orphan_old', '2026-06-30T11:59:00Z'),
      event('SM_orphan_young', '2026-06-30T12:01:00Z'),
      // An adopted event as old is its attempt's evidence: the account's policy decides, not this step.
      event('SM_adopted', '2026-06-01T12:00:00Z', 'att_with_events'),
    ]);
    const outcome = await runJob();
    expect(outcome).toMatchObject({ outcome: 'purged', orphanDeliveryEvents: 1 });
    const left = await t.db.db
      .select({ id: codeDeliveryEvents.providerMessageId })
      .from(codeDeliveryEvents)
      .where(
        inArray(codeDeliveryEvents.providerMessageId, ['SM_orphan_old', 'SM_orphan_young', 'SM_adopted']),
      )
      .orderBy(codeDeliveryEvents.providerMessageId);
    expect(left.map((row) => row.id)).toEqual(['SM_adopted', 'SM_orphan_young']);
  });

  it('a hold placed while the purge runs keeps everything the purge had not removed when it was placed', async () => {
    setClock(t, '2026-06-01T12:00:00Z');
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const phones = ['+12015550301', '+12015550302', '+12015550303', '+12015550304'];
    for (let i = 0; i < 60; i += 1)
      await insertVerification(t, form, {
        cellPhone: phones[i % phones.length],
        createdAt: new Date(Date.UTC(2026, 5, 1, 0, i)),
      });
    t.clock.advance(6 * YEAR);
    await owner.c.login(owner.email, owner.password);

    const countOf = async (phone: string) => {
      const [row] = await t.db.db
        .select({ n: sql<number>`count(*)::int` })
        .from(verifications)
        .where(and(eq(verifications.accountId, owner.accountId), eq(verifications.cellPhone, phone)));
      return row?.n ?? -1;
    };
    /** The owner places a hold on the number: its answer counts what it reaches, in its own transaction. */
    const holdAfter = async (phone: string, afterMs: number) => {
      await new Promise((resolve) => setTimeout(resolve, afterMs));
      const placed = await owner.c.post(`/api/legal-holds?account=${owner.accountId}`, {
        scope: 'identifier',
        phone,
        reason: 'Doe v. Acme',
      });
      expect(placed.statusCode, placed.body).toBe(201);
      return placed.json<LegalHold>().reaches?.verifications ?? -1;
    };
    const [purge, ...seen] = await Promise.all([
      purgeAccount(deps(), { accountId: owner.accountId, years: 5 }, 2),
      holdAfter(phones[0] ?? '', 0),
      holdAfter(phones[1] ?? '', 5),
      holdAfter(phones[2] ?? '', 20),
    ]);
    for (const [index, phone] of phones.slice(0, 3).entries())
      expect(await countOf(phone), phone).toBe(seen[index]);
    expect(await countOf(phones[3] ?? '')).toBe(0);
    expect(purge.removed.verifications + (seen[0] ?? 0) + (seen[1] ?? 0) + (seen[2] ?? 0)).toBe(60);
  });
});
