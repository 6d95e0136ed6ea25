import type { CertificateUnlock, PublicCertificate, VerifyForm } from '@veriform/contracts';
import { schema } from '@veriform/db';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test-support/app.ts';
import { TestClient } from '../../test-support/client.ts';
import { createPublicForm } from '../../test-support/public-verify.ts';
import { newOwner, nextIp, type Owner } from '../../test-support/teams.ts';
import { insertVerification } from '../verifications/test-helpers.ts';
import { saltedSha256 } from './content.ts';
import { UNLOCK_LIMITS, unlockTexts } from './public.ts';
import { certificateFile } from './service.ts';

const t = useTestApp();
const { verificationCertificates, auditEvents } = schema;

const notFound = { detail: 'Not found.', MainCode_: 'not_found' };

/** A visitor of the public check page: nobody logged in, an address of its own, the page's CSRF token. */
async function visitor(ip = nextIp()): Promise<TestClient> {
  const c = new TestClient(t.app, ip);
  await c.fetchCsrf();
  return c;
}

/** The consumer's address and browser as the verification recorded them: signed, shown only once unlocked. */
const EVIDENCE = { ip: '198.51.100.77', userAgent: 'Mozilla/5.0 (Consumer Phone; Evidence/7.7)' };

async function issued(
  owner: Owner,
  form: VerifyForm,
  values: { email?: string; method?: 'sms' | 'email'; ip?: string; userAgent?: string } = {},
) {
  const verification = await insertVerification(t, form, {
    ...(values.email ? { email: values.email } : {}),
    ...(values.method ? { verificationMethod: values.method } : {}),
    ...(values.ip ? { ip: values.ip } : {}),
    ...(values.userAgent ? { userAgent: values.userAgent } : {}),
  });
  const row = await t.app.services.certificates.issue(owner.accountId, verification.id);
  return { verification, row };
}

const unlockUrl = (certId: string) => `/api/public/certificates/${certId}/unlock`;

/** Redaction as H4's feature does it to the certificate (the trigger allows it once). */
async function redact(certId: string, at: Date) {
  await t.db.db
    .update(verificationCertificates)
    .set({ redactedAt: at, content: null, unlockSalt: null })
    .where(eq(verificationCertificates.id, certId));
}

describe('GET /api/public/certificates/{certId}', () => {
  it('shows the certificate as signed, masked, valid, to anyone, never cached; no IP address or user agent', async () => {
    const owner = await newOwner(t.app, 'Public Check Co');
    const form = await createPublicForm(owner);
    const { verification, row } = await issued(owner, form, EVIDENCE);
    const anyone = new TestClient(t.app, nextIp());

    const response = await anyone.get(`/api/public/certificates/${row.id}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const answer = response.json<PublicCertificate>();
    const file = JSON.parse(certificateFile(row));
    // Signed with the evidence; the locked page's answer is the rest of it.
    expect(file.certificate.evidence).toEqual(EVIDENCE);
    const { evidence: _signedEvidence, ...locked } = file.certificate;
    expect(answer).toEqual({
      id: row.id,
      issuedAt: row.createdAt.toISOString(),
      company: 'Public Check Co',
      companyDomains: [],
      status: 'valid',
      revokedAt: null,
      revocationReason: null,
      redactedAt: null,
      purgedAt: null,
      consentRevokedAt: null,
      reassignment: null,
      certificate: locked,
      signature: file.signature,
    });
    expect(answer.certificate?.verification.cellPhone).toBe(`+1 ••• ••• ${verification.cellPhone.slice(-4)}`);
    expect(response.body).not.toContain(verification.cellPhone.slice(2));
    expect(response.body).not.toContain(EVIDENCE.ip);
    expect(response.body).not.toContain(EVIDENCE.userAgent);
    expect(response.body).not.toContain('evidence');
  });

  it('answers the same 404 for an unknown id, a malformed one and junk', async () => {
    for (const id of [
      'cert_AAAAAAAAAAAAAAAAAAAAAA',
      'cert_short',
      'nope',
      '%00',
      `cert_${'A'.repeat(400)}`,
    ]) {
      const response = await t.app.inject({ method: 'GET', url: `/api/public/certificates/${id}` });
      expect(response.statusCode, id).toBe(404);
      expect(response.json()).toEqual(notFound);
    }
  });

  it('says revoked, when and why; redacted wins over revoked and the content is gone', async () => {
    const owner = await newOwner(t.app, 'Revoking Co');
    const form = await createPublicForm(owner);
    const { row } = await issued(owner, form);
    const revokedAt = new Date('2026-03-01T10:00:00.000Z');
    await t.db.db
      .update(verificationCertificates)
      .set({ revokedAt, revocationReason: 'Signed up by mistake' })
      .where(eq(verificationCertificates.id, row.id));
    const revoked = (await t.app.inject({ method: 'GET', url: `/api/public/certificates/${row.id}` })).json();
    expect(revoked).toMatchObject({
      status: 'revoked',
      revokedAt: revokedAt.toISOString(),
      revocationReason: 'Signed up by mistake',
      redactedAt: null,
      certificate: expect.objectContaining({ id: row.id }),
    });

    const redactedAt = new Date('2026-04-01T10:00:00.000Z');
    await redact(row.id, redactedAt);
    const redacted = await t.app.inject({ method: 'GET', url: `/api/public/certificates/${row.id}` });
    expect(redacted.statusCode).toBe(200);
    expect(redacted.json()).toEqual({
      id: row.id,
      issuedAt: row.createdAt.toISOString(),
      company: 'Revoking Co',
      companyDomains: [],
      status: 'redacted',
      revokedAt: revokedAt.toISOString(),
      revocationReason: 'Signed up by mistake',
      redactedAt: redactedAt.toISOString(),
      purgedAt: null,
      consentRevokedAt: null,
      reassignment: null,
      certificate: null,
      signature: { alg: 'Ed25519', keyId: row.keyId, value: row.signature },
    });
  });
});

describe('POST /api/public/certificates/{certId}/unlock', () => {
  it('the right number, typed any common way, unlocks it: the number, the salt, recorded in the audit log', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const { verification, row } = await issued(owner, form, EVIDENCE);
    const national = verification.cellPhone.slice(2);
    const typed = `(${national.slice(0, 3)}) ${national.slice(3, 6)}-${national.slice(6)}`;
    const ip = nextIp();
    const c = await visitor(ip);

    const response = await c.post(
      unlockUrl(row.id),
      { cellPhone: typed },
      { headers: { 'user-agent': 'Judge/1.0' } },
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const unlocked = response.json<CertificateUnlock>();
    // The evidence the locked page leaves out comes with the number.
    expect(unlocked).toEqual({
      cellPhone: verification.cellPhone,
      email: null,
      salt: row.unlockSalt,
      evidence: EVIDENCE,
    });
    // With the salt, anyone checks the signed hash is of this number.
    const file = JSON.parse(certificateFile(row));
    expect(saltedSha256(unlocked.salt, unlocked.cellPhone)).toBe(
      file.certificate.verification.cellPhoneSha256,
    );

    const events = await t.db.db
      .select()
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.accountId, owner.accountId),
          eq(auditEvents.action, 'verification.certificate_unlocked'),
        ),
      );
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      actorType: 'system',
      actorName: 'Public check page',
      targetType: 'verification',
      targetId: String(verification.id),
      changes: { certificateId: row.id },
      ip,
      userAgent: 'Judge/1.0',
    });
  });

  it('reveals the address too when the code went by e-mail', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const { verification, row } = await issued(owner, form, { email: 'jane@example.com', method: 'email' });
    const c = await visitor();
    const response = await c.post(unlockUrl(row.id), { cellPhone: verification.cellPhone });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      cellPhone: verification.cellPhone,
      email: 'jane@example.com',
      salt: row.unlockSalt,
      evidence: { ip: null, userAgent: null },
    });
  });

  it('refuses a wrong number in words on cellPhone, and what is no number without using up a guess', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const { verification, row } = await issued(owner, form);
    const c = await visitor();
    const wrong = await c.post(unlockUrl(row.id), { cellPhone: '+1 415 200 9999' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ cellPhone: [unlockTexts.wrongNumber], MainCode_: 'validation_error' });
    for (const cellPhone of ['banana', '12']) {
      const refused = await c.post(unlockUrl(row.id), { cellPhone });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({
        cellPhone: [unlockTexts.notAPhoneNumber],
        MainCode_: 'validation_error',
      });
    }
    expect((await c.post(unlockUrl(row.id), { cellPhone: '' })).json()).toMatchObject({
      cellPhone: [expect.any(String)],
    });
    expect((await c.post(unlockUrl(row.id), {})).statusCode).toBe(400);
    // One wrong guess so far: the right number still unlocks.
    expect((await c.post(unlockUrl(row.id), { cellPhone: verification.cellPhone })).statusCode).toBe(200);
    // No CSRF token: refused like every unsafe call.
    expect(
      (await c.post(unlockUrl(row.id), { cellPhone: verification.cellPhone }, { csrf: false })).statusCode,
    ).toBe(403);
    expect(
      (await c.post(unlockUrl('cert_AAAAAAAAAAAAAAAAAAAAAA'), { cellPhone: '+14152009999' })).json(),
    ).toEqual(notFound);
  });

  it('20 wrong numbers at once from one network: exactly 5 compared, the rest 429; then even the right one is 429; other networks are not held up', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const { verification, row } = await issued(owner, form);
    const c = await visitor();

    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        c.post(unlockUrl(row.id), { cellPhone: `+1415200${String(1000 + i).padStart(4, '0')}` }),
      ),
    );
    const statuses = answers.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 400)).toHaveLength(UNLOCK_LIMITS.perIp.limit);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20 - UNLOCK_LIMITS.perIp.limit);
    const limited = answers.find((r) => r.statusCode === 429);
    expect(limited?.headers['retry-after']).toBe(String(UNLOCK_LIMITS.perIp.windowMs / 1000));
    expect(limited?.json()).toEqual({ detail: unlockTexts.tooManyFromIp(900), MainCode_: 'rate_limited' });
    expect(limited?.json<{ detail: string }>().detail).toBe(
      'Too many wrong numbers from your connection. Try again in 15 minutes.',
    );

    // Limited means limited: the right number is not compared either.
    expect((await c.post(unlockUrl(row.id), { cellPhone: verification.cellPhone })).statusCode).toBe(429);
    // Another network unlocks at once.
    const other = await visitor();
    expect((await other.post(unlockUrl(row.id), { cellPhone: verification.cellPhone })).statusCode).toBe(200);
    // A quarter of an hour later the first network may try again.
    t.clock.advance(UNLOCK_LIMITS.perIp.windowMs);
    expect((await c.post(unlockUrl(row.id), { cellPhone: verification.cellPhone })).statusCode).toBe(200);
  });

  it('per certificate, from any number of networks: 20 wrong numbers a day, then 429 for everyone', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const { verification, row } = await issued(owner, form);
    const visitors = await Promise.all(Array.from({ length: 25 }, () => visitor()));
    const answers = await Promise.all(
      visitors.map((c, i) => c.post(unlockUrl(row.id), { cellPhone: `+1415201${String(1000 + i)}` })),
    );
    const statuses = answers.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 400)).toHaveLength(UNLOCK_LIMITS.perCertificate.limit);
    expect(statuses.filter((s) => s === 429)).toHaveLength(25 - UNLOCK_LIMITS.perCertificate.limit);
    const fresh = await visitor();
    const refused = await fresh.post(unlockUrl(row.id), { cellPhone: verification.cellPhone });
    expect(refused.statusCode).toBe(429);
    expect(refused.json<{ detail: string }>().detail).toBe(
      'Too many wrong numbers were tried for this certificate. Try again in 24 hours.',
    );
    // Another certificate is not affected.
    const { verification: second, row: secondRow } = await issued(owner, form);
    expect((await fresh.post(unlockUrl(secondRow.id), { cellPhone: second.cellPhone })).statusCode).toBe(200);
  });

  it('a redacted certificate has nothing to unlock: 404 saying so and when', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const { verification, row } = await issued(owner, form);
    const at = new Date('2026-05-01T00:00:00.000Z');
    await redact(row.id, at);
    const response = await (await visitor()).post(unlockUrl(row.id), { cellPhone: verification.cellPhone });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: unlockTexts.redacted(at), MainCode_: 'not_found' });
    expect(response.json<{ detail: string }>().detail).toContain('redacted on 2026-05-01T00:00:00.000Z');
    const [{ count } = { count: 0 }] = await t.db.db
      .select({ count: sql<number>`count(*)::int` })
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.accountId, owner.accountId),
          eq(auditEvents.action, 'verification.certificate_unlocked'),
        ),
      );
    expect(count).toBe(0);
  });
});
