import type {
  CertificateCheck,
  PublicCertificate,
  VerificationCertificateStanding,
} from '@veriform/contracts';
import { schema } from '@veriform/db';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test-support/app.ts';
import { TestClient } from '../../test-support/client.ts';
import { multipartBody } from '../../test-support/multipart.ts';
import { createPublicForm } from '../../test-support/public-verify.ts';
import { insertRevocation } from '../../test-support/revocations.ts';
import { newOwner, nextIp } from '../../test-support/teams.ts';
import { insertVerification } from '../verifications/test-helpers.ts';
import { certificateFile } from './service.ts';

/**
 * Issue #35: a certificate stays valid evidence of its moment once the consumer revokes consent, and every standing of
 * it (the public page, the check of a file, the member's standing) says "consent revoked on …" beside the signed
 * content, which does not change by a byte.
 */

const t = useTestApp();
const { verificationCertificates } = schema;

const T0 = new Date('2026-05-01T12:00:00.000Z');
const T1 = new Date('2026-05-20T09:15:00.000Z');

async function visitor(): Promise<TestClient> {
  const c = new TestClient(t.app, nextIp());
  await c.fetchCsrf();
  return c;
}

const revocation = (accountId: number, values: Partial<typeof schema.revocations.$inferInsert>) =>
  insertRevocation(t.db.db, { accountId, receivedAt: T1, ...values });

describe('a certificate after the consumer revoked consent', () => {
  it('stays valid and its signed bytes unchanged; the public page, the check and the standing say consent revoked', async () => {
    const owner = await newOwner(t.app, 'Consent Co');
    const form = await createPublicForm(owner);
    const verification = await insertVerification(t, form, {
      cellPhone: '+12015550701',
      createdAt: T0,
      verifiedAt: T0,
    });
    const row = await t.app.services.certificates.issue(owner.accountId, verification.id);
    const signed = certificateFile(row);
    const downloadUrl = `/api/verifications/${verification.id}/certificate?account=${owner.accountId}`;
    const downloaded = await owner.c.get(downloadUrl);
    expect(downloaded.statusCode, downloaded.body).toBe(200);
    const anyone = await visitor();
    const publicUrl = `/api/public/certificates/${row.id}`;
    const standingUrl = `/api/verifications/${verification.id}/certificate/standing?account=${owner.accountId}`;
    expect((await anyone.get(publicUrl)).json<PublicCertificate>()).toMatchObject({
      status: 'valid',
      consentRevokedAt: null,
    });

    // Neither a possible one, a test one, nor another account's counts.
    await revocation(owner.accountId, { phone: '+12015550701', status: 'possible' });
    await revocation(owner.accountId, { phone: '+12015550701', isTest: true });
    await revocation((await newOwner(t.app, 'Other Co')).accountId, { phone: '+12015550701' });
    expect((await anyone.get(publicUrl)).json<PublicCertificate>().consentRevokedAt).toBeNull();

    await revocation(owner.accountId, { phone: '+12015550701' });
    const page = (await anyone.get(publicUrl)).json<PublicCertificate>();
    expect(page).toMatchObject({ status: 'valid', revokedAt: null, consentRevokedAt: T1.toISOString() });

    const checked = await anyone.postMultipart(
      '/api/public/certificates/verify',
      multipartBody([
        {
          name: 'file',
          filename: 'certificate.json',
          contentType: 'application/json',
          data: Buffer.from(signed, 'utf8'),
        },
      ]),
    );
    expect(checked.statusCode, checked.body).toBe(200);
    expect(checked.json<CertificateCheck>()).toMatchObject({
      verdict: 'authentic',
      standing: { status: 'valid', consentRevokedAt: T1.toISOString() },
    });
    expect((await owner.c.get(standingUrl)).json<VerificationCertificateStanding>()).toMatchObject({
      status: 'valid',
      certificateId: row.id,
      consentRevokedAt: T1.toISOString(),
    });

    // The certificate as signed: the same row, the same file, the same download.
    const [after] = await t.db.db
      .select()
      .from(verificationCertificates)
      .where(eq(verificationCertificates.id, row.id));
    expect(after?.content).toBe(row.content);
    expect(after?.signature).toBe(row.signature);
    expect(after && certificateFile(after)).toBe(signed);
    expect((await owner.c.get(downloadUrl)).body).toBe(downloaded.body);
    expect(page.signature.value).toBe(row.signature);
  });

  it('a revocation before the verification is not this consent’s; the standing without a certificate says it too', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    await revocation(owner.accountId, { phone: '+12015550702', receivedAt: new Date(T0.getTime() - 1000) });
    const verification = await insertVerification(t, form, {
      cellPhone: '+12015550702',
      createdAt: T0,
      verifiedAt: T0,
    });
    const standingUrl = `/api/verifications/${verification.id}/certificate/standing?account=${owner.accountId}`;
    expect((await owner.c.get(standingUrl)).json<VerificationCertificateStanding>()).toMatchObject({
      certificateId: null,
      consentRevokedAt: null,
    });
    await revocation(owner.accountId, { phone: '+12015550702' });
    expect((await owner.c.get(standingUrl)).json<VerificationCertificateStanding>()).toMatchObject({
      status: 'valid',
      certificateId: null,
      consentRevokedAt: T1.toISOString(),
    });
  });
});
