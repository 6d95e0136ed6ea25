import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Certificate, CertificateKeys, VerifyForm } from '@veriform/contracts';
import { schema } from '@veriform/db';
import {
  canonicalJson,
  checkChain,
  parseKeys,
  sha256Hex,
  verifyCertificateFile,
} from '@veriform/verify-certificate';
import { and, eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../config.ts';
import { newApiKey } from '../../test-support/api-v1/client.ts';
import { buildTestApp, useTestApp } from '../../test-support/app.ts';
import { createPublicForm } from '../../test-support/public-verify.ts';
import { newOwner, type Owner } from '../../test-support/teams.ts';
import { insertVerification, verifyOnHostedPage } from '../verifications/test-helpers.ts';
import { verificationTimeline } from '../verifications/timeline.ts';
import { recordSha256, saltedSha256 } from './content.ts';
import { certificateFile, signedContent } from './service.ts';

const t = useTestApp();
const {
  verificationCertificates,
  certificateSigningKeys,
  auditEvents,
  verificationAttempts,
  consentVersions,
} = schema;

const CONSENT = 'I agree that Acme Inc. may text me about my application at the number above.';

type SignedFile = { certificate: Certificate; signature: { alg: string; keyId: string; value: string } };

async function liveFormWithConsent(owner: Owner): Promise<VerifyForm> {
  const form = await createPublicForm(owner, { name: 'Loan application' });
  const published = await owner.c.post(`/api/verify-forms/${form.id}/consent-versions`, {
    language: 'en',
    text: CONSENT,
    requireCheckbox: true,
  });
  expect(published.statusCode, published.body).toBe(201);
  return form;
}

const certificateUrl = (owner: Owner, verificationId: number) =>
  `/api/verifications/${verificationId}/certificate?account=${owner.accountId}`;

async function certificateOf(
  owner: Owner,
  verificationId: number,
): Promise<{ body: string; file: SignedFile }> {
  const response = await owner.c.get(certificateUrl(owner, verificationId));
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  return { body: response.body, file: JSON.parse(response.body) as SignedFile };
}

async function keysOf(app = t.app): Promise<CertificateKeys> {
  const response = await app.inject({ method: 'GET', url: '/.well-known/veriform-certificate-keys.json' });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['cache-control']).toBe('public, max-age=300');
  return response.json<CertificateKeys>();
}

const rowOf = async (verificationId: number) =>
  (
    await t.db.db
      .select()
      .from(verificationCertificates)
      .where(eq(verificationCertificates.verificationId, verificationId))
  )[0];

describe('GET /api/verifications/{id}/certificate', () => {
  it('says what was stored, signed with the published key, the same bytes on every request, each view audited', async () => {
    const owner = await newOwner(t.app, 'Acme Inc.');
    const form = await liveFormWithConsent(owner);
    const verification = await verifyOnHostedPage(t, form);

    const { body, file } = await certificateOf(owner, verification.id);
    const stored = await rowOf(verification.id);
    if (!stored) throw new Error('no certificate stored');
    const [version] = await t.db.db
      .select()
      .from(consentVersions)
      .where(eq(consentVersions.verifyFormId, form.id));
    const [attempt] = await t.db.db
      .select()
      .from(verificationAttempts)
      .where(eq(verificationAttempts.verificationId, verification.id));
    const timeline = await verificationTimeline(t.db.db, owner.accountId, verification.id, t.clock.now());
    const salt = stored.unlockSalt;
    if (salt === null) throw new Error('a certificate not redacted keeps its salt');

    expect(file.certificate).toEqual({
      id: stored.id,
      version: 1,
      issued: stored.createdAt.toISOString(),
      account: { id: owner.accountId, name: 'Acme Inc.', verifiedDomains: [] },
      form: { id: form.id, name: 'Loan application', publicId: form.publicId },
      verification: {
        id: verification.id,
        created: verification.createdAt.toISOString(),
        codeSent: verification.codeSentAt?.toISOString(),
        verified: verification.verifiedAt?.toISOString(),
        channel: 'sms',
        cellPhone: `+1 ••• ••• ${verification.cellPhone.slice(-4)}`,
        cellPhoneSha256: sha256Hex(`${salt}:${verification.cellPhone}`),
        email: null,
        emailSha256: null,
        externalRefId: '',
        isTest: false,
        source: 'hosted',
      },
      // The account asks no carrier lookups (issue #36; number-checks.test.ts signs them).
      carrier: null,
      simSwap: null,
      // Not made through a refresh link (issue #36 item 4; refresh-links.test.ts signs one).
      refreshes: null,
      consent: {
        versionId: version?.id,
        version: 1,
        language: 'en',
        sha256: version?.sha256,
        text: CONSENT,
      },
      page: { url: `${t.config.publicUrl}/f/${form.publicId}`, reference: null },
      timeline,
      attempts: { count: 1, codesEntered: 1, wrongCodes: 0 },
      evidence: { ip: verification.ip, userAgent: verification.userAgent },
      record: { sha256: recordSha256(verification, salt) },
      chain: { seq: 1, prevHash: null },
    });
    expect(verification.ip).toEqual(expect.any(String));
    expect(timeline?.map((event) => event.kind)).toEqual(
      expect.arrayContaining(['code_requested', 'code_entered', 'verified']),
    );
    expect(attempt?.id).toEqual(timeline?.find((e) => e.kind === 'verified')?.attemptId);
    // The number is in the file only as its salted hash; the salt stays in the database.
    expect(body).not.toContain(verification.cellPhone.slice(1));
    expect(body).not.toContain(salt);
    expect(saltedSha256(salt, verification.cellPhone)).toBe(file.certificate.verification.cellPhoneSha256);

    // The answer is the stored content, as signed, in canonical form; its row's hash is the content's.
    expect(body).toBe(certificateFile(stored));
    expect(body).toBe(canonicalJson(file));
    expect(stored.content).toBe(canonicalJson(file.certificate));
    expect(stored.sha256).toBe(sha256Hex(signedContent(stored)));

    const keys = await keysOf();
    expect(keys.keys).toEqual([
      {
        keyId: file.signature.keyId,
        alg: 'Ed25519',
        publicKey: expect.any(String),
        created: expect.any(String),
        retired: null,
      },
    ]);
    expect(file.signature).toEqual({ alg: 'Ed25519', keyId: stored.keyId, value: stored.signature });
    expect(verifyCertificateFile(body, parseKeys(keys))).toEqual({
      verdict: 'authentic',
      reason: null,
      keyId: stored.keyId,
      certificateId: stored.id,
      issuedAt: file.certificate.issued,
      company: 'Acme Inc.',
      format: 'json',
    });

    t.clock.advance(60_000);
    expect((await certificateOf(owner, verification.id)).body).toBe(body);
    const views = await t.db.db
      .select({ action: auditEvents.action, targetId: auditEvents.targetId, changes: auditEvents.changes })
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.accountId, owner.accountId),
          eq(auditEvents.action, 'verification.certificate_viewed'),
        ),
      );
    expect(views).toEqual([
      {
        action: 'verification.certificate_viewed',
        targetId: String(verification.id),
        changes: { certificateId: stored.id, format: 'json' },
      },
      {
        action: 'verification.certificate_viewed',
        targetId: String(verification.id),
        changes: { certificateId: stored.id, format: 'json' },
      },
    ]);
  });

  it('catches every changed byte of the file: each byte flipped, and any byte replaced by any other', async () => {
    const owner = await newOwner(t.app);
    const form = await liveFormWithConsent(owner);
    const verification = await verifyOnHostedPage(t, form);
    const { body } = await certificateOf(owner, verification.id);
    const keys = parseKeys(await keysOf());
    const bytes = Buffer.from(body, 'utf8');
    expect(verifyCertificateFile(bytes, keys).verdict).toBe('authentic');
    // A trailing newline (an editor's) is the one change tolerated.
    expect(verifyCertificateFile(Buffer.concat([bytes, Buffer.from('\n')]), keys).verdict).toBe('authentic');

    for (let position = 0; position < bytes.length; position += 1) {
      const copy = Buffer.from(bytes);
      copy[position] = (copy[position] ?? 0) ^ 0x01;
      expect(verifyCertificateFile(copy, keys).verdict, `byte ${position}`).not.toBe('authentic');
    }
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: bytes.length - 1 }),
        fc.integer({ min: 1, max: 255 }),
        (position, delta) => {
          const copy = Buffer.from(bytes);
          copy[position] = ((copy[position] ?? 0) + delta) % 256;
          return verifyCertificateFile(copy, keys).verdict !== 'authentic';
        },
      ),
      { numRuns: 2000 },
    );
    // Reformatted, although every value is the same: not the bytes that were signed.
    expect(verifyCertificateFile(JSON.stringify(JSON.parse(body), null, 2), keys).verdict).toBe('altered');
  });

  it("answers 404 for another account's verification and an unknown one, 401 without a session", async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const verification = await insertVerification(t, form);
    const stranger = await newOwner(t.app);

    expect((await stranger.c.get(certificateUrl(stranger, verification.id))).statusCode).toBe(404);
    expect((await stranger.c.get(`/api/verifications/${verification.id}/certificate`)).statusCode).toBe(404);
    expect((await owner.c.get(certificateUrl(owner, 999_999_999))).statusCode).toBe(404);
    // Nothing was issued by asking.
    expect(await rowOf(verification.id)).toBeUndefined();
    expect(
      (await t.app.inject({ method: 'GET', url: certificateUrl(owner, verification.id) })).statusCode,
    ).toBe(401);
  });

  it('refuses to change or remove a certificate in the database', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const verification = await insertVerification(t, form);
    const { file } = await certificateOf(owner, verification.id);
    const refusal = async (query: Promise<unknown>) => {
      try {
        await query;
        return 'accepted';
      } catch (error) {
        return error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
      }
    };
    expect(
      await refusal(
        t.db.db.execute(
          sql`update verification_certificates set content = replace(content, 'Acme', 'Acne') where id = ${file.certificate.id}`,
        ),
      ),
    ).toBe('verification_certificates is immutable: UPDATE refused');
    expect(
      await refusal(
        t.db.db.execute(sql`delete from verification_certificates where id = ${file.certificate.id}`),
      ),
    ).toBe('verification_certificates is immutable: DELETE refused');
  });
});

describe('the chain of an account’s certificates', () => {
  it('links each certificate to the one before; a removed one is found by the chain check', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const files: SignedFile[] = [];
    for (let i = 0; i < 3; i += 1) {
      files.push((await certificateOf(owner, (await insertVerification(t, form)).id)).file);
    }
    const certificates = files.map((f) => f.certificate);
    expect(certificates.map((c) => c.chain.seq)).toEqual([1, 2, 3]);
    expect(certificates[0]?.chain.prevHash).toBeNull();
    expect(certificates[1]?.chain.prevHash).toBe(sha256Hex(canonicalJson(certificates[0])));
    expect(certificates[2]?.chain.prevHash).toBe(sha256Hex(canonicalJson(certificates[1])));
    expect(checkChain(certificates)).toEqual({
      ok: true,
      count: 3,
      headHash: sha256Hex(canonicalJson(certificates[2])),
    });
    expect(checkChain(await t.app.services.certificates.chainOf(owner.accountId))).toMatchObject({
      ok: true,
    });

    expect(checkChain([certificates[0], certificates[2]])).toEqual({
      ok: false,
      seq: 2,
      reason: 'certificate 2 is missing (next is 3)',
    });
    // The last one removed leaves a valid shorter chain: the head hash (kept by whoever checked before) tells.
    expect(checkChain([certificates[0], certificates[1]])).toMatchObject({ ok: true, count: 2 });
    expect(checkChain([certificates[1], certificates[2]])).toMatchObject({ ok: false, seq: 1 });
  });

  it('issues one certificate for ten first requests at once, and chains ten verifications asked at once without gaps', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const verification = await insertVerification(t, form);
    const same = await Promise.all(
      Array.from({ length: 10 }, () => owner.c.get(certificateUrl(owner, verification.id))),
    );
    expect(same.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    expect(new Set(same.map((r) => r.body)).size).toBe(1);
    const rows = await t.db.db
      .select()
      .from(verificationCertificates)
      .where(eq(verificationCertificates.accountId, owner.accountId));
    expect(rows).toHaveLength(1);

    const others = [];
    for (let i = 0; i < 10; i += 1) others.push(await insertVerification(t, form));
    const answers = await Promise.all(others.map((v) => owner.c.get(certificateUrl(owner, v.id))));
    expect(answers.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    const chain = await t.app.services.certificates.chainOf(owner.accountId);
    expect(chain.map((c) => c.chain.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(checkChain(chain)).toMatchObject({ ok: true, count: 11 });
  });
});

describe('GET /api/v1/verifications/{id}/certificate', () => {
  it('answers the same signed bytes to a key with verifications:read; 403 without it; 404 while not approved', async () => {
    const owner = await newOwner(t.app);
    const form = await liveFormWithConsent(owner);
    const verification = await verifyOnHostedPage(t, form);
    const [attempt] = await t.db.db
      .select({ id: verificationAttempts.id })
      .from(verificationAttempts)
      .where(eq(verificationAttempts.verificationId, verification.id));
    if (!attempt) throw new Error('no attempt');
    const reader = (await newApiKey(owner, ['verifications:read'], 'live')).key;
    const writer = (await newApiKey(owner, ['verifications:write'], 'live')).key;
    const v1 = (key: string, id: string) =>
      t.app.inject({
        method: 'GET',
        url: `/api/v1/verifications/${id}/certificate`,
        headers: { authorization: `Bearer ${key}` },
      });

    const read = await v1(reader, attempt.id);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(read.body).toBe((await certificateOf(owner, verification.id)).body);
    expect(verifyCertificateFile(read.body, parseKeys(await keysOf())).verdict).toBe('authentic');

    const refused = await v1(writer, attempt.id);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'insufficient_scope' });
    expect(refused.headers['content-type']).toContain('application/problem+json');

    const pending = `pending-${verification.id}`;
    await t.db.db.insert(verificationAttempts).values({
      id: pending,
      accountId: owner.accountId,
      verifyFormId: form.id,
      cellPhone: verification.cellPhone,
      method: 'sms',
      codeHash: 'not-a-real-hash',
      expiresAt: new Date(t.clock.now().getTime() + 600_000),
    });
    expect((await v1(reader, pending)).json()).toMatchObject({ status: 404, code: 'not_found' });
    expect((await v1(reader, 'no-such-attempt')).statusCode).toBe(404);
    const stranger = await newOwner(t.app);
    expect(
      (await v1((await newApiKey(stranger, ['verifications:read'], 'live')).key, attempt.id)).statusCode,
    ).toBe(404);
  });
});

describe('key rotation (CERTIFICATE_KEY_GENERATION)', () => {
  it('keeps old certificates verifying, publishes the retired key, signs new ones with the new key', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const old = await certificateOf(owner, (await insertVerification(t, form)).id);
    const before = await keysOf();

    const rotated = await buildTestApp(t.db, { env: { CERTIFICATE_KEY_GENERATION: '2' } });
    try {
      const after = await keysOf(rotated.app);
      const oldKey = old.file.signature.keyId;
      expect(after.keys).toHaveLength(before.keys.length + 1);
      expect(after.keys.find((k) => k.keyId === oldKey)?.retired).toEqual(expect.any(String));
      const current = after.keys.filter((k) => k.retired === null);
      expect(current).toHaveLength(1);
      expect(current[0]?.keyId).not.toBe(oldKey);

      const published = parseKeys(after);
      expect(verifyCertificateFile(old.body, published).verdict).toBe('authentic');
      const fresh = await rotated.app.inject({
        method: 'GET',
        url: certificateUrl(owner, (await insertVerification(t, form)).id),
        headers: { cookie: owner.c.cookieHeader() },
      });
      expect(fresh.statusCode, fresh.body).toBe(200);
      const file = JSON.parse(fresh.body) as SignedFile;
      expect(file.signature.keyId).toBe(current[0]?.keyId);
      expect(verifyCertificateFile(fresh.body, published).verdict).toBe('authentic');
      // Only the key list from before the rotation: the new certificate's key is not in it.
      expect(verifyCertificateFile(fresh.body, parseKeys(before)).verdict).toBe('unknown');
      // The chain goes on across keys.
      expect(file.certificate.chain).toEqual({
        seq: 2,
        prevHash: sha256Hex(canonicalJson(old.file.certificate)),
      });
      const stored = await t.db.db.select().from(certificateSigningKeys);
      expect(stored).toHaveLength(after.keys.length);
    } finally {
      await rotated.app.close();
    }
    // Back to generation 1 (this file's app): its key is current again once it registers it anew.
  });
});

describe('veriform-verify-certificate (the offline checker)', () => {
  it('says authentic, issued … by …, exit 0, for a real certificate; altered, exit 1, for a changed copy', async () => {
    const owner = await newOwner(t.app, 'Offline Check LLC');
    const form = await createPublicForm(owner);
    const { body, file } = await certificateOf(owner, (await insertVerification(t, form)).id);
    const dir = await mkdtemp(join(tmpdir(), 'veriform-certificate-'));
    await writeFile(join(dir, 'certificate.json'), body);
    await writeFile(join(dir, 'altered.json'), body.replace('Offline Check LLC', 'Offline Check LLD'));
    await writeFile(join(dir, 'keys.json'), JSON.stringify(await keysOf()));
    const cli = join(repoRoot, 'packages', 'verify-certificate', 'src', 'cli.js');
    const run = async (...args: string[]) => {
      try {
        const { stdout } = await promisify(execFile)(process.execPath, [cli, ...args]);
        return { code: 0, stdout };
      } catch (error) {
        const failed = error as { code: number; stdout: string };
        return { code: failed.code, stdout: failed.stdout };
      }
    };
    const keys = ['--keys', join(dir, 'keys.json')];

    expect(await run(join(dir, 'certificate.json'), ...keys)).toEqual({
      code: 0,
      stdout: `authentic, issued ${file.certificate.issued} by Offline Check LLC (certificate ${file.certificate.id})\n`,
    });
    expect(await run(join(dir, 'altered.json'), ...keys)).toEqual({
      code: 1,
      stdout: 'altered (the signature does not match)\n',
    });
    expect((await run(join(dir, 'certificate.json'))).code).toBe(3);

    // The keys straight from the issuer's well-known address.
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const keysUrl = `http://127.0.0.1:${port}/.well-known/veriform-certificate-keys.json`;
    expect(await run(join(dir, 'certificate.json'), '--keys-url', keysUrl)).toMatchObject({ code: 0 });
    expect(await run(join(dir, 'altered.json'), '--keys-url', keysUrl)).toMatchObject({ code: 1 });
  });
});
