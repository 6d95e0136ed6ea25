import {
  errorTexts,
  type SendCodeResponse,
  type VerificationDetail,
  type VerificationList,
  type VerificationReport,
  type VerificationTimeline,
} from '@veriform/contracts';
import { schema } from '@veriform/db';
import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apiV1, newApiKey } from '../../test-support/api-v1/client.ts';
import { useTestApp } from '../../test-support/app.ts';
import { waitForSend } from '../../test-support/attempts.ts';
import { MINUTE } from '../../test-support/clock.ts';
import { latestCodeMessageTo } from '../../test-support/codes.ts';
import { parseCsv } from '../../test-support/csv.ts';
import {
  type Consumer,
  createPublicForm,
  newCellPhone,
  newConsumer,
} from '../../test-support/public-verify.ts';
import { join, newOwner, type Owner } from '../../test-support/teams.ts';
import { checkStoredChain } from '../certificates/redaction.ts';
import { insertVerification, verifyOnHostedPage } from './test-helpers.ts';

/** POST /api/verifications/{id}/redact (issue #19, ADR 25): a consumer's personal data removed from one verification. */

const t = useTestApp();
const notFound = { detail: 'Not found.', MainCode_: 'not_found' };
const {
  verifications,
  verificationAttempts,
  codeEntries,
  formPageViews,
  auditEvents,
  webhookEvents,
  webhookEndpoints,
  webhookDeliveries,
  webhookDeliveryAttempts,
  verificationDailyCounts,
  verificationCertificates,
} = schema;

const redactUrl = (owner: Owner, id: number) => `/api/verifications/${id}/redact?account=${owner.accountId}`;

async function askCode(consumer: Consumer, publicId: string, phone: { typed: string; e164: string }) {
  const response = await consumer.sendCode(publicId, {
    cellPhone: phone.typed,
    method: 'sms',
    ...consumer.consentFields(),
    ...consumer.pageFields(),
  });
  expect(response.statusCode, response.body).toBe(201);
  const { attemptId } = response.json<SendCodeResponse>();
  await waitForSend(t.app, attemptId);
  const { code } = await latestCodeMessageTo(t.app, phone.e164);
  return { attemptId, code };
}

/**
 * A consumer opens a form with a consent text, asks for a code, asks again, types a wrong code, then the right one;
 * later the same number comes back from another visit and asks for a code it never types.
 */
async function verifiedWithHistory(owner: Owner) {
  const form = await createPublicForm(owner, { name: 'Loan application' });
  const published = await owner.c.post(`/api/verify-forms/${form.id}/consent-versions`, {
    language: 'en',
    text: 'I agree that Acme may text me about my application.',
    requireCheckbox: true,
  });
  expect(published.statusCode, published.body).toBe(201);
  const consumer = await newConsumer(t.app, form.publicId);
  const phone = newCellPhone();
  t.clock.advance(MINUTE);
  const first = await askCode(consumer, form.publicId, phone);
  t.clock.advance(MINUTE);
  const second = await askCode(consumer, form.publicId, phone);
  t.clock.advance(MINUTE);
  const wrong = String((Number(second.code) + 1) % 1_000_000).padStart(6, '0');
  expect((await consumer.check(second.attemptId, wrong)).statusCode).toBe(400);
  const checked = await consumer.check(second.attemptId, second.code);
  expect(checked.statusCode, checked.body).toBe(200);
  const { verificationId } = checked.json<{ verificationId: number }>();
  t.clock.advance(10 * MINUTE);
  const returning = await newConsumer(t.app, form.publicId);
  const later = await askCode(returning, form.publicId, phone);
  return { form, phone, verificationId, attemptIds: [first.attemptId, second.attemptId], later };
}

/** A receiver's answer, kept with a delivery of one of the attempts' events, that echoes the number. */
async function deliveryAnswerQuoting(accountId: number, attemptIds: string[], e164: string): Promise<number> {
  const events = await t.db.db.select().from(webhookEvents).where(eq(webhookEvents.accountId, accountId));
  const event = events.find((e) => attemptIds.includes((e.data as { id: string }).id));
  if (!event) throw new Error('no event about the attempts');
  const [endpoint] = await t.db.db
    .insert(webhookEndpoints)
    .values({ accountId, url: 'https://hooks.example/in', eventTypes: ['*'], secretSealed: 'sealed' })
    .returning();
  if (!endpoint) throw new Error('no endpoint');
  const [delivery] = await t.db.db
    .insert(webhookDeliveries)
    .values({ accountId, eventId: event.id, endpointId: endpoint.id, eventCreatedAt: event.createdAt })
    .returning();
  if (!delivery) throw new Error('no delivery');
  const [attempt] = await t.db.db
    .insert(webhookDeliveryAttempts)
    .values({
      deliveryId: delivery.id,
      attemptedAt: t.clock.now(),
      statusCode: 200,
      latencyMs: 12,
      responseSnippet: `{"received":"${e164}"}`,
    })
    .returning();
  if (!attempt) throw new Error('no delivery attempt');
  return attempt.id;
}

const verificationRow = async (id: number) =>
  (await t.db.db.select().from(verifications).where(eq(verifications.id, id)))[0];

const attemptRows = (ids: string[]) =>
  t.db.db.select().from(verificationAttempts).where(inArray(verificationAttempts.id, ids));

const redactionEvents = (accountId: number) =>
  t.db.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.accountId, accountId), eq(auditEvents.action, 'verification.redacted')));

describe('POST /api/verifications/{id}/redact', () => {
  it('removes the number, address, IP and user agent from the verification and its attempts, page view and code entries; keeps the facts', async () => {
    const owner = await newOwner(t.app);
    const { form, phone, verificationId, attemptIds, later } = await verifiedWithHistory(owner);
    const before = await verificationRow(verificationId);
    if (!before) throw new Error('no verification');
    expect(before.ip).not.toBeNull();
    const timelineBefore = await owner.c.get(`/api/verifications/${verificationId}/timeline`);
    expect(timelineBefore.statusCode).toBe(200);
    // Free text we keep that may quote the number: a provider's error, a receiver's answer to a webhook delivery.
    const [firstAttempt] = attemptIds;
    await t.db.db
      .update(verificationAttempts)
      .set({
        sendError: `The 'To' number ${phone.e164} is not a valid phone number (you typed ${phone.typed}).`,
      })
      .where(eq(verificationAttempts.id, firstAttempt ?? ''));
    const snippetId = await deliveryAnswerQuoting(owner.accountId, attemptIds, phone.e164);

    t.clock.advance(MINUTE);
    const redactedAt = t.clock.now().toISOString();
    const response = await owner.c.post(redactUrl(owner, verificationId));
    expect(response.statusCode, response.body).toBe(200);
    const masked = `+1 ••• ••• ${phone.e164.slice(-4)}`;
    expect(response.json<VerificationDetail>()).toEqual({
      id: verificationId,
      cellPhone: masked,
      externalRefId: before.externalRefId,
      verifyFormId: form.id,
      verifyFormName: 'Loan application',
      verifyFormCategory: before.verifyFormCategory,
      verificationMethod: 'sms',
      isTest: false,
      source: 'hosted',
      created: before.createdAt.toISOString(),
      email: null,
      codeSentAt: before.codeSentAt?.toISOString() ?? null,
      verifiedAt: before.verifiedAt?.toISOString() ?? null,
      attempts: before.attempts,
      ip: null,
      userAgent: null,
      consent: {
        versionId: before.consentVersionId,
        version: 1,
        language: 'en',
        sha256: before.consentSha256,
      },
      redactedAt,
      // Its number and address are masked: no revocation names them any more (issue #35).
      revokedAt: null,
      revocationId: null,
      revocation: null,
      // Its code went out with no carrier lookups and its number was never checked (issue #36).
      carrier: null,
      simSwap: null,
      reassignment: null,
      refreshes: null,
      // No legal hold reaches it: held evidence is refused (legal-holds.test.ts).
      heldBy: [],
      holds: [],
    });
    // The detail reads the same (and a view of it names the masked number).
    const detail = await owner.c.get(`/api/verifications/${verificationId}?account=${owner.accountId}`);
    expect(detail.json()).toEqual(response.json());

    // The rows: nothing of the person is left in the verification's evidence…
    const after = await verificationRow(verificationId);
    expect(after).toEqual({
      ...before,
      cellPhone: masked,
      ip: null,
      userAgent: null,
      redactedAt: new Date(redactedAt),
    });
    const attempts = await attemptRows(attemptIds);
    expect(attempts).toHaveLength(2);
    for (const attempt of attempts) {
      expect(attempt).toMatchObject({ cellPhone: masked, ip: null, userAgent: null });
      // …while what happened stays: the code's hash, status, times, delivery and consent.
      expect(attempt.consentSha256).toBe(before.consentSha256);
      expect(attempt.sentAt).not.toBeNull();
    }
    expect(attempts.map((a) => a.status).sort()).toEqual(['replaced', 'verified']);
    const entries = await t.db.db
      .select()
      .from(codeEntries)
      .where(inArray(codeEntries.attemptId, attemptIds));
    expect(entries.map((e) => e.correct).sort()).toEqual([false, true]);
    for (const entry of entries) expect(entry).toMatchObject({ ip: null, userAgent: null });
    const viewIds = [...new Set(attempts.map((a) => a.pageViewId))];
    expect(viewIds).toHaveLength(1);
    const views = await t.db.db
      .select()
      .from(formPageViews)
      .where(
        inArray(
          formPageViews.id,
          viewIds.flatMap((id) => (id === null ? [] : [id])),
        ),
      );
    expect(views).toEqual([
      expect.objectContaining({ ip: null, userAgent: null, consentVersionId: before.consentVersionId }),
    ]);
    // The stored webhook events about those attempts (GET /api/v1/events, replays) are masked too.
    const events = await t.db.db
      .select()
      .from(webhookEvents)
      .where(eq(webhookEvents.accountId, owner.accountId));
    const aboutThem = events.filter((e) => attemptIds.includes((e.data as { id: string }).id));
    expect(aboutThem.length).toBeGreaterThan(0);
    for (const event of aboutThem)
      expect(event.data).toMatchObject({ to: masked, email: null, evidence: null });
    expect(JSON.stringify(aboutThem)).not.toContain(phone.e164);

    expect((await attemptRows([firstAttempt ?? '']))[0]?.sendError).toBe(
      `The 'To' number ${masked} is not a valid phone number (you typed ${masked}).`,
    );
    const [snippet] = await t.db.db
      .select({ text: webhookDeliveryAttempts.responseSnippet })
      .from(webhookDeliveryAttempts)
      .where(eq(webhookDeliveryAttempts.id, snippetId));
    // A receiver's answer may echo anything of ours in any spelling: it is replaced whole (issue #33).
    expect(snippet?.text).toBe('[redacted]');

    // The later visit's code is another record: not this verification's evidence, kept as it was (ADR 25).
    const [laterRow] = await attemptRows([later.attemptId]);
    expect(laterRow).toMatchObject({ cellPhone: phone.e164, ip: expect.any(String) });

    // The timeline still reads the same lines.
    const timelineAfter = await owner.c.get(`/api/verifications/${verificationId}/timeline`);
    expect(timelineAfter.json<VerificationTimeline>()).toEqual(timelineBefore.json<VerificationTimeline>());

    // One audit event, naming the verification by the masked number, with no personal data in it.
    const [event, ...more] = await redactionEvents(owner.accountId);
    expect(more).toEqual([]);
    expect(event).toMatchObject({
      actorName: owner.email,
      targetType: 'verification',
      targetId: String(verificationId),
      targets: [{ type: 'verification', id: String(verificationId), name: masked }],
      changes: { attempts: 2, certificateId: null },
    });
    expect(JSON.stringify(event)).not.toContain(phone.e164.slice(2));
  });

  it('masks an e-mail verification’s address', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const row = await insertVerification(t, form, {
      cellPhone: '+14155550142',
      verificationMethod: 'email',
      email: 'ana.lopez@example.com',
      ip: '203.0.113.9',
      userAgent: 'Mozilla/5.0 (iPhone)',
    });
    const response = await owner.c.post(redactUrl(owner, row.id), {});
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<VerificationDetail>()).toMatchObject({
      cellPhone: '+1 ••• ••• 0142',
      email: 'a•••@example.com',
      ip: null,
      userAgent: null,
    });
    // A body with anything in it is refused: there is nothing to choose. No body at all is fine; no CSRF token is not.
    const other = await insertVerification(t, form);
    expect((await owner.c.post(redactUrl(owner, other.id), { reason: 'x' })).statusCode).toBe(400);
    expect((await owner.c.post(redactUrl(owner, other.id), {}, { csrf: false })).statusCode).toBe(403);
    expect((await verificationRow(other.id))?.redactedAt).toBeNull();
    const bare = await owner.c.request({ method: 'POST', url: redactUrl(owner, other.id) });
    expect(bare.statusCode, bare.body).toBe(200);
  });

  it('happens once: again is a 400 with its date; ten at once redact once and record one event', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const row = await insertVerification(t, form, { ip: '203.0.113.9' });
    const redactedAt = t.clock.now().toISOString();
    expect((await owner.c.post(redactUrl(owner, row.id))).statusCode).toBe(200);
    t.clock.advance(MINUTE);
    const again = await owner.c.post(redactUrl(owner, row.id));
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({
      nonFieldErrors: [`This verification's personal data was already redacted on ${redactedAt}.`],
    });

    const many = await insertVerification(t, form, { ip: '203.0.113.10' });
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => owner.c.post(redactUrl(owner, many.id))),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, ...Array(9).fill(400)]);
    const events = await redactionEvents(owner.accountId);
    expect(events.filter((e) => e.targetId === String(many.id))).toHaveLength(1);
    expect(events).toHaveLength(2);
  });

  it('owners only (manageEvidence): 403 for a member who may search data; 404 for another account’s or an unknown id', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const row = await insertVerification(t, form);
    const searcher = await join(t.app, owner, { canSearchData: true, canViewReports: true });
    const denied = await searcher.c.post(redactUrl(owner, row.id));
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ detail: errorTexts.permissionDenied, MainCode_: 'permission_denied' });

    const stranger = await newOwner(t.app, 'Stranger');
    for (const url of [
      `/api/verifications/${row.id}/redact`,
      `/api/verifications/${row.id}/redact?account=${owner.accountId}`,
      `/api/verifications/${row.id}/redact?account=${stranger.accountId}`,
    ]) {
      const response = await stranger.c.post(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toEqual(notFound);
    }
    for (const id of ['2000000000', 'abc', '0']) {
      const response = await owner.c.post(`/api/verifications/${id}/redact?account=${owner.accountId}`);
      expect(response.statusCode, id).toBe(404);
    }
    const coOwner = await join(t.app, owner, { role: 'owner' });
    expect((await coOwner.c.post(redactUrl(owner, row.id))).statusCode).toBe(200);
    expect((await verificationRow(row.id))?.redactedAt).not.toBeNull();
    // Nothing else of the account changed: the refused calls redacted nothing.
    expect(await redactionEvents(stranger.accountId)).toEqual([]);
  });

  it('the search no longer finds it by its old number; the counts and the report are unchanged', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const kept = await insertVerification(t, form, { cellPhone: '+14155550199' });
    const gone = await insertVerification(t, form, { cellPhone: '+14155550142' });
    const list = async (q: string) => {
      const response = await owner.c.get(
        `/api/verifications?account=${owner.accountId}&q=${encodeURIComponent(q)}`,
      );
      expect(response.statusCode, response.body).toBe(200);
      return response.json<VerificationList>();
    };
    const reportOf = async () =>
      (await owner.c.get(`/api/verifications/report?account=${owner.accountId}`)).json<VerificationReport>();
    const counts = () =>
      t.db.db
        .select()
        .from(verificationDailyCounts)
        .where(eq(verificationDailyCounts.accountId, owner.accountId));
    const searches = ['+14155550142', '(415) 555-0142', '4155550142', '5550142'];
    for (const q of searches)
      expect(
        (await list(q)).results.map((v) => v.id),
        q,
      ).toEqual([gone.id]);
    const reportBefore = await reportOf();
    const countsBefore = await counts();
    const allBefore = await list('');

    expect((await owner.c.post(redactUrl(owner, gone.id))).statusCode).toBe(200);

    for (const q of searches) expect((await list(q)).count, q).toBe(0);
    // The number as the list now shows it (its last four digits) still finds it.
    expect((await list('0142')).results.map((v) => v.id)).toEqual([gone.id]);
    expect((await list('0199')).results.map((v) => v.id)).toEqual([kept.id]);
    const allAfter = await list('');
    expect(allAfter.count).toBe(allBefore.count);
    expect(allAfter.results.find((v) => v.id === gone.id)?.cellPhone).toBe('+1 ••• ••• 0142');
    expect(await reportOf()).toEqual(reportBefore);
    expect(await counts()).toEqual(countsBefore);

    // The CSV: the masked number (text, as a number's cell always is) and, in its column, when it was redacted.
    const csv = await owner.c.get(
      `/api/verifications/export-csv?account=${owner.accountId}&o=created&tz=UTC`,
    );
    expect(csv.statusCode, csv.body).toBe(200);
    const [header, ...rows] = parseCsv(csv.body.slice(1));
    const redactedColumn = header?.indexOf('Redacted') ?? -1;
    expect(redactedColumn).toBe(12);
    const redactedOn = `${t.clock.now().toISOString().slice(0, 10)} ${t.clock.now().toISOString().slice(11, 19)} +00:00`;
    expect(rows.map((r) => [Number(r[0]), r[1], r[redactedColumn]])).toEqual([
      [kept.id, "'+14155550199", ''],
      [gone.id, "'+1 ••• ••• 0142", redactedOn],
    ]);
  });

  it('API v1 shows the attempts redacted: masked whatever the scope, no evidence, with redactedAt; its events too', async () => {
    const owner = await newOwner(t.app);
    const { phone, verificationId, attemptIds, later } = await verifiedWithHistory(owner);
    const { key } = await newApiKey(owner, ['verifications:read', 'events:read'], 'live');
    const api = apiV1(t.app, key);
    const redactedAt = t.clock.now().toISOString();
    expect((await owner.c.post(redactUrl(owner, verificationId))).statusCode).toBe(200);
    const masked = `+1 ••• ••• ${phone.e164.slice(-4)}`;
    // The code that approved it says when; the one it replaced on the same visit is masked too, with no verification
    // to date it by.
    const [replaced, approving] = attemptIds;
    for (const [id, date] of [
      [approving, redactedAt],
      [replaced, null],
    ] as const) {
      const { data } = await api.GET('/api/v1/verifications/{id}', { params: { path: { id: id ?? '' } } });
      expect(data).toMatchObject({
        id,
        to: masked,
        email: null,
        evidence: { ip: null, userAgent: null },
        redactedAt: date,
      });
    }
    const { data: other } = await api.GET('/api/v1/verifications/{id}', {
      params: { path: { id: later.attemptId } },
    });
    expect(other).toMatchObject({ to: phone.e164, redactedAt: null });
    const { data: page } = await api.GET('/api/v1/verifications', { params: { query: { limit: 10 } } });
    expect(page?.data.filter((v) => v.redactedAt !== null).map((v) => v.id)).toEqual([approving]);
    const { data: stored } = await api.GET('/api/v1/events', { params: { query: { limit: 100 } } });
    const about = stored?.data.filter((e) => attemptIds.includes(String(e.data.id))) ?? [];
    expect(about.length).toBeGreaterThan(0);
    expect(JSON.stringify(about)).not.toContain(phone.e164);
  });
});

describe('a redacted verification’s certificate', () => {
  const certificateUrl = (owner: Owner, id: number) =>
    `/api/verifications/${id}/certificate?account=${owner.accountId}`;
  const certificateRow = async (verificationId: number) =>
    (
      await t.db.db
        .select()
        .from(verificationCertificates)
        .where(eq(verificationCertificates.verificationId, verificationId))
    )[0];

  it('one issued before: its content and unlock salt go, its hash, signature and link stay; the chain still checks', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const chain = [];
    for (let i = 0; i < 3; i += 1) {
      const verification = await verifyOnHostedPage(t, form);
      const response = await owner.c.get(certificateUrl(owner, verification.id));
      expect(response.statusCode, response.body).toBe(200);
      const row = await certificateRow(verification.id);
      if (!row) throw new Error('no certificate');
      chain.push({ verification, row });
    }
    const [first, middle, last] = chain;
    if (!first || !middle || !last) throw new Error('three certificates');
    expect(last.row.prevHash).toBe(middle.row.sha256);

    t.clock.advance(MINUTE);
    const redactedAt = t.clock.now();
    expect((await owner.c.post(redactUrl(owner, middle.verification.id))).statusCode).toBe(200);

    expect(await certificateRow(middle.verification.id)).toEqual({
      ...middle.row,
      content: null,
      unlockSalt: null,
      redactedAt,
    });
    const gone = await owner.c.get(certificateUrl(owner, middle.verification.id));
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({
      detail: `The consumer's personal data in this verification was redacted on ${redactedAt.toISOString()}; its certificate's content was removed with it.`,
      MainCode_: 'not_found',
    });
    // Through API v1 too (by the verifying attempt's id).
    const [attempt] = await t.db.db
      .select({ id: verificationAttempts.id })
      .from(verificationAttempts)
      .where(eq(verificationAttempts.verificationId, middle.verification.id));
    if (!attempt) throw new Error('no attempt');
    const { key } = await newApiKey(owner, ['verifications:read'], 'live');
    const v1 = await t.app.inject({
      method: 'GET',
      url: `/api/v1/verifications/${attempt.id}/certificate`,
      headers: { authorization: `Bearer ${key}` },
    });
    expect(v1.statusCode).toBe(404);
    expect(v1.body).toContain(`redacted on ${redactedAt.toISOString()}`);

    // The others are served as before, and the chain checks with the redacted link standing by its stored hash.
    expect((await owner.c.get(certificateUrl(owner, last.verification.id))).statusCode).toBe(200);
    expect(await checkStoredChain(t.db.db, owner.accountId)).toEqual({
      ok: true,
      count: 3,
      headHash: last.row.sha256,
    });
    const [event] = await redactionEvents(owner.accountId);
    expect(event?.changes).toEqual({ attempts: 1, certificateId: middle.row.id });
  });

  it('none issued before: none is issued after, and the chain goes on without it', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const before = await verifyOnHostedPage(t, form);
    expect((await owner.c.get(certificateUrl(owner, before.id))).statusCode).toBe(200);
    const redacted = await verifyOnHostedPage(t, form);
    const redactedAt = t.clock.now();
    expect((await owner.c.post(redactUrl(owner, redacted.id))).statusCode).toBe(200);

    const answers = await Promise.all(
      Array.from({ length: 5 }, () => owner.c.get(certificateUrl(owner, redacted.id))),
    );
    for (const answer of answers) {
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toEqual({
        detail: `The consumer's personal data in this verification was redacted on ${redactedAt.toISOString()}; no certificate is issued for it.`,
        MainCode_: 'not_found',
      });
    }
    expect(await certificateRow(redacted.id)).toBeUndefined();
    await expect(t.app.services.certificates.issue(owner.accountId, redacted.id)).rejects.toMatchObject({
      code: 'not_found',
    });
    const next = await verifyOnHostedPage(t, form);
    expect((await owner.c.get(certificateUrl(owner, next.id))).statusCode).toBe(200);
    expect(await checkStoredChain(t.db.db, owner.accountId)).toMatchObject({ ok: true, count: 2 });
  });

  it('a redaction and first certificate requests at once: either the certificate was issued and is redacted, or none is', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const verification = await verifyOnHostedPage(t, form);
    const [redaction, ...views] = await Promise.all([
      owner.c.post(redactUrl(owner, verification.id)),
      ...Array.from({ length: 5 }, () => owner.c.get(certificateUrl(owner, verification.id))),
    ]);
    expect(redaction?.statusCode).toBe(200);
    for (const view of views) expect([200, 404]).toContain(view.statusCode);
    const row = await certificateRow(verification.id);
    if (row) expect(row).toMatchObject({ content: null, unlockSalt: null, redactedAt: expect.any(Date) });
    expect((await owner.c.get(certificateUrl(owner, verification.id))).statusCode).toBe(404);
    expect(await checkStoredChain(t.db.db, owner.accountId)).toMatchObject({ ok: true });
  });
});
