import { createHash } from 'node:crypto';
import type {
  ApiRefreshLink,
  ApiVerification,
  Certificate,
  CertificateKeys,
  SendCodeResponse,
  VerificationDetail,
  VerifyForm,
} from '@veriform/contracts';
import { schema } from '@veriform/db';
import { parseKeys, verifyCertificateFile } from '@veriform/verify-certificate';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { keyCall, newApiKey } from '../../test-support/api-v1/client.ts';
import { TEST_PUBLIC_URL, useTestApp } from '../../test-support/app.ts';
import { readAttempt } from '../../test-support/attempts.ts';
import { DAY, HOUR } from '../../test-support/clock.ts';
import { latestCodeTo } from '../../test-support/codes.ts';
import {
  addTestNumber,
  Consumer,
  createPublicForm,
  newCellPhone,
  verifyPhone,
} from '../../test-support/public-verify.ts';
import { newOwner, nextIp, type Owner } from '../../test-support/teams.ts';
import { pdfLines } from '../certificates/pdf-text.test-support.ts';
import { REFRESH_LINK_DAYS } from './index.ts';

/**
 * Refresh links (issue #36 item 4, ADR 44), on each engine: API v1's and the app's link for an approved verification,
 * each refusal, the key's own account and mode, Idempotency-Key; the whole loop on the hosted page (the link's token
 * sent with the code request, the new verification `refreshes` the old with the old one's reference, a tampered `ref`
 * notwithstanding), and a token that binds nothing (unknown, expired, another form's, another mode's) never stopping
 * the consumer.
 */

const t = useTestApp();
const { refreshLinks, verificationAttempts } = schema;

const TEST_NUMBER = '+12015550143';
const TEST_CODE = '135790';
const REF = 'lead-4711';

type World = { owner: Owner; form: VerifyForm; liveKey: string; testKey: string };
let w: World;

beforeAll(async () => {
  const owner = await newOwner(t.app);
  const form = await createPublicForm(owner);
  await addTestNumber(owner, TEST_NUMBER, TEST_CODE);
  const scopes = ['verifications:write', 'verifications:read'] as const;
  w = {
    owner,
    form,
    liveKey: (await newApiKey(owner, [...scopes], 'live')).key,
    testKey: (await newApiKey(owner, [...scopes], 'test')).key,
  };
});

const call = (key: string, method: 'GET' | 'POST', url: string, body?: unknown) =>
  keyCall(t.app, key)(method, url, body);
const refreshUrl = (id: string) => `/api/v1/verifications/${id}/refresh`;

/** A live verification approved on the hosted page, bound to `ref`: its attempt (API v1's id) and the app's id. */
async function approvedLive(ref = REF): Promise<{ attemptId: string; verificationId: number; e164: string }> {
  t.clock.advance(31_000);
  const { sent, verified, e164 } = await verifyPhone(t.app, w.form.publicId, { externalRefId: ref });
  return { attemptId: sent.attemptId, verificationId: verified.verificationId, e164 };
}

/** A test verification of the test number through the test key. */
async function approvedTest(): Promise<string> {
  t.clock.advance(31_000);
  const started = await call(w.testKey, 'POST', '/api/v1/verifications', {
    formId: w.form.id,
    to: TEST_NUMBER,
    externalRefId: REF,
  });
  expect(started.statusCode, started.body).toBe(201);
  const id = started.json<ApiVerification>().id ?? '';
  const checked = await call(w.testKey, 'POST', `/api/v1/verifications/${id}/check`, { code: TEST_CODE });
  expect(checked.json<{ status: string }>().status).toBe('approved');
  return id;
}

async function refresh(key: string, id: string): Promise<ApiRefreshLink> {
  const response = await call(key, 'POST', refreshUrl(id));
  expect(response.statusCode, response.body).toBe(201);
  return response.json<ApiRefreshLink>();
}

/** The hosted page opened at the link (its path and query as the consumer's browser has them). */
async function openLink(hostedUrl: string): Promise<{ consumer: Consumer; query: URLSearchParams }> {
  const url = new URL(hostedUrl);
  const consumer = new Consumer(t.app, nextIp());
  await consumer.open(w.form.publicId, url.search);
  return { consumer, query: url.searchParams };
}

/**
 * What the page sends for a code from a link: the URL's `ref` as its reference, the URL's `refresh` token; then the
 * code typed back. Answers the new attempt's id and the send-code answer.
 */
async function verifyThrough(
  consumer: Consumer,
  fields: { ref?: string | null; refresh?: string | null },
  phone = newCellPhone(),
): Promise<{ attemptId: string; sent: SendCodeResponse; verificationId: number }> {
  t.clock.advance(31_000);
  const response = await consumer.sendCode(w.form.publicId, {
    cellPhone: phone.typed,
    method: 'sms',
    ...(fields.ref ? { externalRefId: fields.ref } : {}),
    ...(fields.refresh ? { refresh: fields.refresh } : {}),
    ...consumer.consentFields(),
    ...consumer.pageFields(),
  });
  expect(response.statusCode, response.body).toBe(201);
  const sent = response.json<SendCodeResponse>();
  const checked = await consumer.check(sent.attemptId, await latestCodeTo(t.app, phone.e164));
  expect(checked.statusCode, checked.body).toBe(200);
  return {
    attemptId: sent.attemptId,
    sent,
    verificationId: checked.json<{ verificationId: number }>().verificationId,
  };
}

const linkRows = (attemptId: string) =>
  t.db.db.select().from(refreshLinks).where(eq(refreshLinks.attemptId, attemptId));

/** The audit events of links made for the approved attempt `attemptId`, oldest first. */
async function linkAudits(attemptId: string) {
  return t.db.db
    .select({
      actorType: schema.auditEvents.actorType,
      actorId: schema.auditEvents.actorId,
      changes: schema.auditEvents.changes,
      targets: schema.auditEvents.targets,
    })
    .from(schema.auditEvents)
    .where(
      and(
        eq(schema.auditEvents.action, 'verification.refresh_link_created'),
        sql`${schema.auditEvents.changes}->>'apiVerificationId' = ${attemptId}`,
      ),
    )
    .orderBy(schema.auditEvents.id);
}

describe('POST /api/v1/verifications/{id}/refresh', () => {
  it('answers a link to the form’s hosted page with the old reference and a token kept only as its SHA-256', async () => {
    const old = await approvedLive();
    const link = await refresh(w.liveKey, old.attemptId);
    const url = new URL(link.hostedUrl);
    expect(`${url.origin}${url.pathname}`).toBe(`${TEST_PUBLIC_URL}/f/${w.form.publicId}`);
    expect(url.searchParams.get('ref')).toBe(REF);
    const token = url.searchParams.get('refresh') ?? '';
    expect(token).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(link.refreshes).toBe(old.attemptId);
    expect(Date.parse(link.expiresAt) - t.clock.now().getTime()).toBe(REFRESH_LINK_DAYS * DAY);

    const [row] = await linkRows(old.attemptId);
    expect(row).toMatchObject({
      accountId: w.owner.accountId,
      isTest: false,
      verifyFormId: w.form.id,
      externalRefId: REF,
      createdByUserId: null,
      firstUsedAt: null,
    });
    expect(row?.createdByApiKeyId).toEqual(expect.any(Number));
    expect(row?.tokenSha256).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(token);

    // Each call is a new link with a token of its own.
    const again = await refresh(w.liveKey, old.attemptId);
    expect(again.hostedUrl).not.toBe(link.hostedUrl);
    expect(await linkRows(old.attemptId)).toHaveLength(2);
    // Each is in the audit log, by the key, naming the verification (its number masked), never the token.
    const audited = await linkAudits(old.attemptId);
    expect(audited).toHaveLength(2);
    for (const event of audited) {
      expect(event).toMatchObject({
        actorType: 'api_key',
        changes: { apiVerificationId: old.attemptId },
        targets: [{ type: 'verification', id: String(old.verificationId) }],
      });
      expect(JSON.stringify(event)).not.toContain(old.e164);
      expect(JSON.stringify(event)).not.toContain(token);
    }
  });

  it('leaves `ref` out for a verification without a reference', async () => {
    t.clock.advance(31_000);
    const { sent } = await verifyPhone(t.app, w.form.publicId);
    const url = new URL((await refresh(w.liveKey, sent.attemptId)).hostedUrl);
    expect([...url.searchParams.keys()]).toEqual(['refresh']);
  });

  it('refuses what has no consent to refresh: not approved (422), redacted (422), its form inactive (409)', async () => {
    t.clock.advance(31_000);
    const pending = await call(w.liveKey, 'POST', '/api/v1/verifications', {
      formId: w.form.id,
      to: newCellPhone().e164,
    });
    const pendingId = pending.json<ApiVerification>().id ?? '';
    const notApproved = await call(w.liveKey, 'POST', refreshUrl(pendingId));
    expect(notApproved.statusCode).toBe(422);
    expect(notApproved.json()).toMatchObject({
      code: 'refresh_not_possible',
      detail: expect.stringContaining('not approved'),
    });

    const redacted = await approvedLive();
    const redaction = await w.owner.c.post(`/api/verifications/${redacted.verificationId}/redact`);
    expect(redaction.statusCode, redaction.body).toBe(200);
    const refused = await call(w.liveKey, 'POST', refreshUrl(redacted.attemptId));
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      code: 'refresh_not_possible',
      detail: expect.stringContaining('redacted'),
    });

    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const { key } = await newApiKey(owner, ['verifications:write'], 'live');
    const { sent } = await verifyPhone(t.app, form.publicId);
    expect((await owner.c.patch(`/api/verify-forms/${form.id}`, { isLive: false })).statusCode).toBe(200);
    const inactive = await call(key, 'POST', refreshUrl(sent.attemptId));
    expect(inactive.statusCode).toBe(409);
    expect(inactive.json()).toMatchObject({ code: 'form_not_live' });

    for (const id of [pendingId, redacted.attemptId, sent.attemptId]) expect(await linkRows(id)).toEqual([]);
  });

  it('answers 404 for another account’s verification, the other mode’s and an unknown id, making no link', async () => {
    const live = await approvedLive();
    const test = await approvedTest();
    const stranger = await newOwner(t.app, 'Other Inc.');
    const { key: strangerKey } = await newApiKey(stranger, ['verifications:write'], 'live');
    for (const [key, id] of [
      [strangerKey, live.attemptId],
      [w.testKey, live.attemptId],
      [w.liveKey, test],
      [w.liveKey, 'AAAAAAAAAAAAAAAAAAAAAA'],
      [w.liveKey, 'not-an-id'],
    ] as const) {
      const response = await call(key, 'POST', refreshUrl(id));
      expect(response.statusCode, `${id}`).toBe(404);
      expect(response.json()).toMatchObject({ code: 'not_found' });
    }
    expect(await linkRows(live.attemptId)).toEqual([]);
    expect(await linkRows(test)).toEqual([]);
    // Its own mode's key makes the test verification's link, a test link.
    await refresh(w.testKey, test);
    expect((await linkRows(test)).map((row) => row.isTest)).toEqual([true]);
  });

  it('takes an Idempotency-Key: the same request again is the first answer, one link', async () => {
    const old = await approvedLive();
    const send = () =>
      t.app.inject({
        method: 'POST',
        url: refreshUrl(old.attemptId),
        headers: { authorization: `Bearer ${w.liveKey}`, 'idempotency-key': `refresh-${old.attemptId}` },
      });
    const first = await send();
    const second = await send();
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.json()).toEqual(first.json());
    expect(await linkRows(old.attemptId)).toHaveLength(1);
  });

  it('needs verifications:write', async () => {
    const old = await approvedLive();
    const { key } = await newApiKey(w.owner, ['verifications:read'], 'live');
    expect((await call(key, 'POST', refreshUrl(old.attemptId))).statusCode).toBe(403);
  });
});

describe('the hosted page through a refresh link', () => {
  it('makes a verification that refreshes the old one, with its reference whatever the URL’s `ref` says', async () => {
    const old = await approvedLive();
    const link = await refresh(w.liveKey, old.attemptId);
    const { consumer, query } = await openLink(link.hostedUrl);
    const made = await verifyThrough(consumer, { ref: 'tampered-ref', refresh: query.get('refresh') });

    const got = await call(w.liveKey, 'GET', `/api/v1/verifications/${made.attemptId}`);
    expect(got.json<ApiVerification>()).toMatchObject({
      status: 'approved',
      refreshes: old.attemptId,
      externalRefId: REF,
    });
    const oldGot = await call(w.liveKey, 'GET', `/api/v1/verifications/${old.attemptId}`);
    expect(oldGot.json<ApiVerification>().refreshes).toBeNull();

    // The app's detail names the old verification by the app's id; its log row keeps the link's reference.
    const detail = await w.owner.c.get(`/api/verifications/${made.verificationId}`);
    expect(detail.json<VerificationDetail>()).toMatchObject({
      refreshes: old.verificationId,
      externalRefId: REF,
    });
    const oldDetail = await w.owner.c.get(`/api/verifications/${old.verificationId}`);
    expect(oldDetail.json<VerificationDetail>().refreshes).toBeNull();

    // The link's first use is kept; it still works for another try (a consumer who switched numbers, say).
    const [row] = await linkRows(old.attemptId);
    expect(row?.firstUsedAt).not.toBeNull();
    const firstUsedAt = row?.firstUsedAt;
    const again = await verifyThrough(consumer, { ref: REF, refresh: query.get('refresh') });
    expect((await readAttempt(t.app, again.attemptId)).refreshes).toBe(old.attemptId);
    expect((await linkRows(old.attemptId))[0]?.firstUsedAt).toEqual(firstUsedAt);
  });

  it('says nothing of the link in the send-code answer, and an unknown token binds nothing while the consumer verifies', async () => {
    const old = await approvedLive();
    const link = await refresh(w.liveKey, old.attemptId);
    const { consumer, query } = await openLink(link.hostedUrl);
    const linked = await verifyThrough(consumer, { ref: REF, refresh: query.get('refresh') });
    const plain = await verifyThrough(consumer, { ref: 'lead-9' });
    expect(Object.keys(linked.sent).sort()).toEqual(Object.keys(plain.sent).sort());
    expect((await readAttempt(t.app, plain.attemptId)).refreshes).toBeNull();

    for (const token of ['AAAAAAAAAAAAAAAAAAAAAA', 'short', `${query.get('refresh')}x`]) {
      const made = await verifyThrough(consumer, { ref: 'lead-url', refresh: token });
      const attempt = await readAttempt(t.app, made.attemptId);
      expect(attempt.refreshes, token).toBeNull();
      expect(attempt.externalRefId).toBe('lead-url');
    }
  });

  it('binds nothing through another form, nor from a test verification’s link to a live number', async () => {
    const old = await approvedLive();
    const link = await refresh(w.liveKey, old.attemptId);
    const token = new URL(link.hostedUrl).searchParams.get('refresh');
    const other = await createPublicForm(w.owner, { name: 'Other form' });
    const consumer = new Consumer(t.app, nextIp());
    await consumer.open(other.publicId);
    t.clock.advance(31_000);
    const phone = newCellPhone();
    const sent = await consumer.sendCode(other.publicId, {
      cellPhone: phone.typed,
      method: 'sms',
      refresh: token,
      ...consumer.consentFields(),
      ...consumer.pageFields(),
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const otherAttempt = await readAttempt(t.app, sent.json<SendCodeResponse>().attemptId);
    expect(otherAttempt).toMatchObject({ refreshes: null, externalRefId: '' });

    const test = await approvedTest();
    const testLink = await refresh(w.testKey, test);
    const opened = await openLink(testLink.hostedUrl);
    const live = await verifyThrough(opened.consumer, { refresh: opened.query.get('refresh') });
    expect((await readAttempt(t.app, live.attemptId)).refreshes).toBeNull();
  });

  it('binds nothing once the old verification was redacted', async () => {
    const old = await approvedLive();
    const { consumer, query } = await openLink((await refresh(w.liveKey, old.attemptId)).hostedUrl);
    expect((await w.owner.c.post(`/api/verifications/${old.verificationId}/redact`)).statusCode).toBe(200);
    const made = await verifyThrough(consumer, { ref: 'lead-url', refresh: query.get('refresh') });
    expect(await readAttempt(t.app, made.attemptId)).toMatchObject({
      refreshes: null,
      externalRefId: 'lead-url',
    });
  });

  it('binds a test verification’s link to the test number’s new verification (a test one)', async () => {
    const test = await approvedTest();
    const link = await refresh(w.testKey, test);
    const { consumer, query } = await openLink(link.hostedUrl);
    t.clock.advance(31_000);
    const sent = await consumer.sendCode(w.form.publicId, {
      cellPhone: TEST_NUMBER,
      method: 'sms',
      refresh: query.get('refresh'),
      ...consumer.consentFields(),
      ...consumer.pageFields(),
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const attemptId = sent.json<SendCodeResponse>().attemptId;
    expect((await consumer.check(attemptId, TEST_CODE)).statusCode).toBe(200);
    const got = await call(w.testKey, 'GET', `/api/v1/verifications/${attemptId}`);
    expect(got.json<ApiVerification>()).toMatchObject({
      refreshes: test,
      externalRefId: REF,
      livemode: false,
    });
  });
});

describe('POST /api/verifications/{id}/refresh (the app)', () => {
  it('makes the link for the verification by the app’s id, recording the member who made it', async () => {
    const old = await approvedLive();
    const response = await w.owner.c.post(`/api/verifications/${old.verificationId}/refresh`, {});
    expect(response.statusCode, response.body).toBe(201);
    const link = response.json<ApiRefreshLink>();
    expect(link.refreshes).toBe(old.attemptId);
    expect(new URL(link.hostedUrl).searchParams.get('ref')).toBe(REF);
    const [row] = await linkRows(old.attemptId);
    expect(row).toMatchObject({ createdByUserId: w.owner.userId, createdByApiKeyId: null });
    expect(await linkAudits(old.attemptId)).toMatchObject([
      { actorType: 'user', actorId: String(w.owner.userId), changes: { apiVerificationId: old.attemptId } },
    ]);
  });

  it('answers 400 with the reason for a redacted verification', async () => {
    const old = await approvedLive();
    expect((await w.owner.c.post(`/api/verifications/${old.verificationId}/redact`)).statusCode).toBe(200);
    const response = await w.owner.c.post(`/api/verifications/${old.verificationId}/refresh`, {});
    expect(response.statusCode).toBe(400);
    expect(JSON.stringify(response.json())).toContain('redacted');
    expect(await linkRows(old.attemptId)).toEqual([]);
  });
});

describe('one link, many sends at once', () => {
  it('binds every code asked through it (a link is reusable) and keeps one first use', async () => {
    const old = await approvedLive();
    const { query } = await openLink((await refresh(w.liveKey, old.attemptId)).hostedUrl);
    const consumers = await Promise.all(
      Array.from(
        { length: 6 },
        async () => (await openLink(`${TEST_PUBLIC_URL}/f/${w.form.publicId}`)).consumer,
      ),
    );
    t.clock.advance(31_000);
    const answers = await Promise.all(
      consumers.map((consumer) =>
        consumer.sendCode(w.form.publicId, {
          cellPhone: newCellPhone().typed,
          method: 'sms',
          externalRefId: 'tampered',
          refresh: query.get('refresh'),
          ...consumer.consentFields(),
          ...consumer.pageFields(),
        }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(answers.map(() => 201));
    const made = await t.db.db
      .select({ externalRefId: verificationAttempts.externalRefId })
      .from(verificationAttempts)
      .where(eq(verificationAttempts.refreshes, old.attemptId));
    expect(made).toEqual(answers.map(() => ({ externalRefId: REF })));
    const links = await linkRows(old.attemptId);
    expect(links).toHaveLength(1);
    expect(links[0]?.firstUsedAt).toEqual(t.clock.now());
  });
});

describe('the certificate of a verification that refreshes another', () => {
  it('names the old verification, and its certificate when it had one, signed', async () => {
    const old = await approvedLive();
    const oldFile = await w.owner.c.get(`/api/verifications/${old.verificationId}/certificate`);
    expect(oldFile.statusCode, oldFile.body).toBe(200);
    const oldCertificate = oldFile.json<{ certificate: Certificate }>().certificate;
    expect(oldCertificate.refreshes).toBeNull();

    const { consumer, query } = await openLink((await refresh(w.liveKey, old.attemptId)).hostedUrl);
    const made = await verifyThrough(consumer, { refresh: query.get('refresh') });
    const file = await w.owner.c.get(`/api/verifications/${made.verificationId}/certificate`);
    expect(file.statusCode, file.body).toBe(200);
    const { certificate } = file.json<{ certificate: Certificate }>();
    expect(certificate.refreshes).toEqual({
      verificationId: old.verificationId,
      apiVerificationId: old.attemptId,
      certificateId: oldCertificate.id,
    });
    expect(certificate.verification.externalRefId).toBe(REF);
    const keys = parseKeys(
      (
        await t.app.inject({ method: 'GET', url: '/.well-known/veriform-certificate-keys.json' })
      ).json<CertificateKeys>(),
    );
    expect(verifyCertificateFile(Buffer.from(file.body), keys).verdict).toBe('authentic');
    const pdf = await w.owner.c.get(`/api/verifications/${made.verificationId}/certificate.pdf`);
    expect(pdfLines(pdf.rawPayload).join(' ')).toContain(
      `Refreshes verification ${old.verificationId} (API ${old.attemptId}, certificate ${oldCertificate.id})`,
    );

    // Refreshing a verification that has no certificate yet names it without one.
    const bare = await approvedLive();
    const opened = await openLink((await refresh(w.liveKey, bare.attemptId)).hostedUrl);
    const second = await verifyThrough(opened.consumer, { refresh: opened.query.get('refresh') });
    const secondFile = await w.owner.c.get(`/api/verifications/${second.verificationId}/certificate`);
    expect(secondFile.json<{ certificate: Certificate }>().certificate.refreshes).toEqual({
      verificationId: bare.verificationId,
      apiVerificationId: bare.attemptId,
      certificateId: null,
    });
  });
});

describe('the refresh column', () => {
  it('is cleared, not the new verification, when the old attempt goes', async () => {
    const old = await approvedLive();
    const link = await refresh(w.liveKey, old.attemptId);
    const { consumer, query } = await openLink(link.hostedUrl);
    const made = await verifyThrough(consumer, { refresh: query.get('refresh') });
    await t.db.db.delete(verificationAttempts).where(eq(verificationAttempts.id, old.attemptId));
    const attempt = await readAttempt(t.app, made.attemptId);
    expect(attempt).toMatchObject({ refreshes: null, status: 'verified' });
    expect(await linkRows(old.attemptId)).toEqual([]);
  });
});

// Last: the clock moves past the link's life (and the owner's session with it).
describe('an expired link', () => {
  it('binds nothing once the link has expired: the page still verifies, with the URL’s reference', async () => {
    const old = await approvedLive();
    const link = await refresh(w.liveKey, old.attemptId);
    const { consumer, query } = await openLink(link.hostedUrl);
    t.clock.advance(REFRESH_LINK_DAYS * DAY + HOUR);
    const made = await verifyThrough(consumer, { ref: query.get('ref'), refresh: query.get('refresh') });
    const attempt = await readAttempt(t.app, made.attemptId);
    expect(attempt).toMatchObject({ refreshes: null, externalRefId: REF, status: 'verified' });
    expect((await linkRows(old.attemptId))[0]?.firstUsedAt).toBeNull();
  });
});
