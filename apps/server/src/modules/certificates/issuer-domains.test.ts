import { randomBytes } from 'node:crypto';
import type {
  AccountDomain,
  Certificate,
  CertificateCheck,
  CertificateKeys,
  PublicCertificate,
  VerifyForm,
} from '@veriform/contracts';
import { schema } from '@veriform/db';
import { canonicalJson, parseKeys, sha256Hex, verifyCertificateFile } from '@veriform/verify-certificate';
import { afterAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../test-support/app.ts';
import { TestClient } from '../../test-support/client.ts';
import { startTestDnsServer, type TestDnsServer } from '../../test-support/dns-server.ts';
import { multipartBody } from '../../test-support/multipart.ts';
import { createPublicForm } from '../../test-support/public-verify.ts';
import { newOwner, nextIp, type Owner } from '../../test-support/teams.ts';
import { createTxtLookup } from '../domains/proof.ts';
import { insertVerification } from '../verifications/test-helpers.ts';
import { certificateFacts } from './content.ts';
import { deriveSigningKey } from './keys.ts';
import { pdfLines } from './pdf-text.test-support.ts';

/**
 * Who issued a certificate (issue #33 item 10, ADR 31): the company's verified domains are signed into it at issue and
 * shown with its name on the public page and the PDF; without one, "name not verified".
 */

let dns: TestDnsServer;
const t = useTestApp(async () => {
  dns = await startTestDnsServer();
  return { lookupTxt: createTxtLookup({ servers: [dns.address] }), resolveHost: async () => [] };
});
afterAll(() => dns?.close());

const { verificationCertificates, certificateChainHeads } = schema;

type SignedFile = { certificate: Certificate; signature: { alg: string; keyId: string; value: string } };

/** Adds the domain and proves it through its TXT record, as an owner would. */
async function verifyDomain(owner: Owner, domain: string): Promise<void> {
  const added = await owner.c.post(`/api/accounts/${owner.accountId}/domains`, { domain });
  expect(added.statusCode, added.body).toBe(201);
  const { id, token } = added.json<AccountDomain>();
  dns.txt.set(`_veriform.${domain}`, [[token]]);
  const checked = await owner.c.post(`/api/accounts/${owner.accountId}/domains/${id}/check`);
  expect(checked.statusCode, checked.body).toBe(200);
}

async function addUnverified(owner: Owner, domain: string): Promise<number> {
  const added = await owner.c.post(`/api/accounts/${owner.accountId}/domains`, { domain });
  expect(added.statusCode, added.body).toBe(201);
  return added.json<AccountDomain>().id;
}

async function certificateOf(owner: Owner, form: VerifyForm) {
  const verification = await insertVerification(t, form);
  const response = await owner.c.get(
    `/api/verifications/${verification.id}/certificate?account=${owner.accountId}`,
  );
  expect(response.statusCode, response.body).toBe(200);
  return { body: response.body, file: JSON.parse(response.body) as SignedFile };
}

async function keys(): Promise<ReturnType<typeof parseKeys>> {
  const response = await t.app.inject({ method: 'GET', url: '/.well-known/veriform-certificate-keys.json' });
  return parseKeys(response.json<CertificateKeys>());
}

async function publicPage(certId: string): Promise<PublicCertificate> {
  const response = await new TestClient(t.app, nextIp()).get(`/api/public/certificates/${certId}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<PublicCertificate>();
}

async function pdfOf(owner: Owner, verificationId: number): Promise<string[]> {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/verifications/${verificationId}/certificate.pdf?account=${owner.accountId}`,
    headers: { cookie: owner.c.cookieHeader() },
  });
  expect(response.statusCode, response.body).toBe(200);
  return pdfLines(response.rawPayload);
}

describe('a certificate names who issued it', () => {
  it('signs the verified domains at issue (not the unverified ones); the page and the PDF say "verified domain"', async () => {
    const owner = await newOwner(t.app, 'Acme Lending');
    await verifyDomain(owner, 'acme-lending.example');
    await addUnverified(owner, 'not-proven.example');
    await verifyDomain(owner, 'acme.example');
    const form = await createPublicForm(owner);
    const { body, file } = await certificateOf(owner, form);

    expect(file.certificate.account).toEqual({
      id: owner.accountId,
      name: 'Acme Lending',
      verifiedDomains: ['acme-lending.example', 'acme.example'],
    });
    expect(verifyCertificateFile(body, await keys()).verdict).toBe('authentic');

    const page = await publicPage(file.certificate.id);
    expect(page.company).toBe('Acme Lending');
    expect(page.companyDomains).toEqual(['acme-lending.example', 'acme.example']);
    expect(page.certificate?.account.verifiedDomains).toEqual(['acme-lending.example', 'acme.example']);

    // Lines wrap at spaces: the text read back joined by spaces.
    const text = (await pdfOf(owner, file.certificate.verification.id)).join(' ');
    expect(text).toMatch(
      /Issued .* by Veriform for Acme Lending — verified domains acme-lending\.example, acme\.example\./,
    );
    expect(text).toContain('Acme Lending — verified domains acme-lending.example, acme.example (account');
    expect(text).not.toContain('not-proven.example');
  });

  it('without a verified domain: an empty list signed, and "name not verified" on the page and the PDF', async () => {
    const owner = await newOwner(t.app, 'Chase Bank');
    await addUnverified(owner, 'chase-bank.example');
    const form = await createPublicForm(owner);
    const { file } = await certificateOf(owner, form);
    expect(file.certificate.account.verifiedDomains).toEqual([]);
    expect((await publicPage(file.certificate.id)).companyDomains).toEqual([]);
    const text = (await pdfOf(owner, file.certificate.verification.id)).join(' ');
    expect(text).toMatch(/Issued .* by Veriform for Chase Bank — name not verified\./);
    expect(text).toContain('Chase Bank — name not verified (account');
    expect(text).not.toContain('verified domain');
  });

  it('keeps what it signed: a domain verified or removed later changes no certificate already issued', async () => {
    const owner = await newOwner(t.app, 'Later Co');
    await verifyDomain(owner, 'first.later.example');
    const form = await createPublicForm(owner);
    const before = await certificateOf(owner, form);

    await verifyDomain(owner, 'second.later.example');
    const listed = await owner.c.get(`/api/accounts/${owner.accountId}/domains`);
    for (const domain of listed.json<{ results: AccountDomain[] }>().results)
      await owner.c.request({
        method: 'DELETE',
        url: `/api/accounts/${owner.accountId}/domains/${domain.id}`,
      });

    const again = await owner.c.get(
      `/api/verifications/${before.file.certificate.verification.id}/certificate?account=${owner.accountId}`,
    );
    expect(again.body).toBe(before.body);
    expect((await publicPage(before.file.certificate.id)).companyDomains).toEqual(['first.later.example']);
    // A certificate issued now names none.
    expect((await certificateOf(owner, form)).file.certificate.account.verifiedDomains).toEqual([]);
  });
});

describe('certificates issued before domains could be verified', () => {
  /**
   * A certificate as the server signed them before issue #33: the same content without `account.verifiedDomains`,
   * signed with the app's key and stored as the account's first.
   */
  async function issueOldStyle(owner: Owner) {
    const form = await createPublicForm(owner);
    const verification = await insertVerification(t, form, { ip: '198.51.100.4', userAgent: 'Old/1.0' });
    const salt = randomBytes(16).toString('hex');
    const facts = await certificateFacts(
      t.db.db,
      owner.accountId,
      verification.id,
      t.clock.now(),
      salt,
      t.config.publicUrl,
    );
    if (!facts) throw new Error('no facts');
    const { verifiedDomains: _none, ...account } = facts.account;
    const certificate = {
      ...facts,
      account,
      id: `cert_${randomBytes(16).toString('base64url')}`,
      issued: t.clock.now().toISOString(),
      chain: { seq: 1, prevHash: null },
    };
    const content = canonicalJson(certificate);
    expect(content).not.toContain('verifiedDomains');
    await t.app.services.certificates.keys();
    const key = deriveSigningKey(t.config.secretKey, t.config.certificateKeyGeneration);
    await t.db.db.insert(verificationCertificates).values({
      id: certificate.id,
      accountId: owner.accountId,
      verificationId: verification.id,
      seq: 1,
      prevHash: null,
      content,
      sha256: sha256Hex(content),
      keyId: key.keyId,
      signature: key.sign(Buffer.from(content, 'utf8')).toString('base64'),
      unlockSalt: salt,
      createdAt: t.clock.now(),
    });
    await t.db.db
      .insert(certificateChainHeads)
      .values({ accountId: owner.accountId, seq: 1, sha256: sha256Hex(content) });
    return { certificateId: certificate.id, verificationId: verification.id };
  }

  it('still verify, offline and on the check page; read as "name not verified"; the PDF renders', async () => {
    const owner = await newOwner(t.app, 'Old Times Inc.');
    // Verified now, after the certificate was signed: the old certificate still names no domain.
    await verifyDomain(owner, 'old-times.example');
    const { certificateId, verificationId } = await issueOldStyle(owner);

    const json = await owner.c.get(
      `/api/verifications/${verificationId}/certificate?account=${owner.accountId}`,
    );
    expect(json.statusCode, json.body).toBe(200);
    expect(JSON.parse(json.body).certificate.id).toBe(certificateId);
    expect(verifyCertificateFile(json.body, await keys())).toMatchObject({
      verdict: 'authentic',
      company: 'Old Times Inc.',
    });

    const page = await publicPage(certificateId);
    expect(page.companyDomains).toEqual([]);
    expect(page.certificate?.account).toEqual({ id: owner.accountId, name: 'Old Times Inc.' });

    const text = (await pdfOf(owner, verificationId)).join(' ');
    expect(text).toContain('Old Times Inc. — name not verified');

    const c = new TestClient(t.app, nextIp());
    await c.fetchCsrf();
    const checked = await c.postMultipart(
      '/api/public/certificates/verify',
      multipartBody([
        {
          name: 'file',
          filename: 'certificate.json',
          contentType: 'application/json',
          data: Buffer.from(json.body),
        },
      ]),
    );
    expect(checked.statusCode, checked.body).toBe(200);
    expect(checked.json<CertificateCheck>().verdict).toBe('authentic');
  });
});
