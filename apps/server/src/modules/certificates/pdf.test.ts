import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import type { Certificate, CertificateKeys, VerifyForm } from '@veriform/contracts';
import { schema } from '@veriform/db';
import { parseKeys, verifyCertificateFile } from '@veriform/verify-certificate';
import { and, eq } from 'drizzle-orm';
import { create as createQrCode } from 'qrcode';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../config.ts';
import { newApiKey } from '../../test-support/api-v1/client.ts';
import { buildTestApp, useTestApp } from '../../test-support/app.ts';
import { createPublicForm } from '../../test-support/public-verify.ts';
import { newOwner, type Owner } from '../../test-support/teams.ts';
import { insertVerification, verifyOnHostedPage } from '../verifications/test-helpers.ts';
import { deriveSigningKey } from './keys.ts';
import { pdfLines, pdfRectangles } from './pdf-text.test-support.ts';

const t = useTestApp();
const { auditEvents, verificationAttempts } = schema;

type SignedFile = { certificate: Certificate; signature: { alg: string; keyId: string; value: string } };

const CONSENT =
  'Acepto que Acme Inc. me envíe mensajes de texto sobre mi solicitud al número de arriba. ¿Dudas? Escríbanos — gracias 😀 日本';

async function liveForm(owner: Owner, consent = CONSENT): Promise<VerifyForm> {
  const form = await createPublicForm(owner, { name: 'Solicitud de préstamo', language: 'es' });
  const published = await owner.c.post(`/api/verify-forms/${form.id}/consent-versions`, {
    language: 'es',
    text: consent,
    requireCheckbox: true,
  });
  expect(published.statusCode, published.body).toBe(201);
  return form;
}

const url = (owner: Owner, verificationId: number, format: 'json' | 'pdf') =>
  `/api/verifications/${verificationId}/certificate${format === 'pdf' ? '.pdf' : ''}?account=${owner.accountId}`;

async function download(owner: Owner, verificationId: number, app = t.app) {
  const response = await app.inject({
    method: 'GET',
    url: url(owner, verificationId, 'pdf'),
    headers: { cookie: owner.c.cookieHeader() },
  });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toBe('application/pdf');
  return response;
}

async function jsonOf(owner: Owner, verificationId: number) {
  const response = await owner.c.get(url(owner, verificationId, 'json'));
  expect(response.statusCode, response.body).toBe(200);
  return { body: response.body, file: JSON.parse(response.body) as SignedFile, headers: response.headers };
}

async function keysOf(app = t.app): Promise<CertificateKeys> {
  const response = await app.inject({ method: 'GET', url: '/.well-known/veriform-certificate-keys.json' });
  expect(response.statusCode).toBe(200);
  return response.json<CertificateKeys>();
}

/** The one attached file: its name (`/F`) and its bytes, inflated. */
function attachmentOf(pdf: Buffer): { name: string; bytes: Buffer } {
  const text = pdf.toString('latin1');
  const names = [...text.matchAll(/\/Type \/Filespec[\s\S]*?\/F \(([^)]*)\)/g)].map((m) => m[1]);
  expect(names).toHaveLength(1);
  const stream = /<<\n\/Type \/EmbeddedFile[\s\S]*?\/Length (\d+)[\s\S]*?>>\nstream\n/.exec(text);
  if (!stream) throw new Error('no embedded file');
  const from = stream.index + stream[0].length;
  return {
    name: names[0] ?? '',
    bytes: inflateSync(pdf.subarray(from, from + Number(stream[1]))),
  };
}

describe('GET /api/verifications/{id}/certificate.pdf', () => {
  it('says the certificate in words, attaches its signed JSON byte for byte, is sealed and the same on every download', async () => {
    const owner = await newOwner(t.app, 'Acme Inc.');
    const form = await liveForm(owner);
    const verification = await verifyOnHostedPage(t, form);

    const first = await download(owner, verification.id);
    const { body: json, file, headers } = await jsonOf(owner, verification.id);
    const { certificate } = file;
    const pdf = first.rawPayload;
    expect(first.headers['content-disposition']).toBe(
      `attachment; filename="veriform-certificate-${certificate.id}.pdf"`,
    );
    expect(headers['content-disposition']).toBe(
      `attachment; filename="veriform-certificate-${certificate.id}.json"`,
    );

    // The attachment is exactly what the JSON endpoint answers, named for the certificate.
    expect(attachmentOf(pdf)).toEqual({
      name: `veriform-certificate-${certificate.id}.json`,
      bytes: Buffer.from(json, 'utf8'),
    });

    // Sealed with the key that signed the certificate, which is the published one.
    const keys = await keysOf();
    const text = pdf.toString('latin1');
    expect(text.startsWith('%PDF-')).toBe(true);
    const sealLine = text.slice(text.lastIndexOf('\n', text.length - 2) + 1);
    expect(sealLine).toMatch(new RegExp(`^%VERIFORM-SEAL ${file.signature.keyId} [A-Za-z0-9+/]{86}==\\n$`));
    expect(text.slice(0, text.length - sealLine.length).endsWith('%%EOF\n')).toBe(true);
    expect(verifyCertificateFile(pdf, parseKeys(keys))).toEqual({
      verdict: 'authentic',
      reason: null,
      keyId: file.signature.keyId,
      certificateId: certificate.id,
      issuedAt: certificate.issued,
      company: 'Acme Inc.',
      format: 'pdf',
    });

    // The same bytes on every download, whenever: the document's dates are the issue time, nothing random.
    t.clock.advance(3 * 24 * 3600_000);
    expect((await download(owner, verification.id)).rawPayload.equals(pdf)).toBe(true);
    expect(text).toContain(`/CreationDate (D:${certificate.issued.slice(0, 19).replace(/[-T:]/g, '')}Z)`);

    // Everything in the certificate, in words.
    const lines = pdfLines(pdf);
    const all = lines.join('\n');
    const joined = lines.join(' ');
    const dense = lines.join('');
    const number = `+1 ••• ••• ${verification.cellPhone.slice(-4)}`;
    expect(certificate.verification.cellPhone).toBe(number);
    for (const fact of [
      'Verification certificate',
      `Issued ${certificate.issued.replace('T', ' ').replace('Z', ' UTC')} by Veriform for Acme Inc.`,
      `Certificate ${certificate.id}`,
      `Acme Inc. — name not verified (account ${owner.accountId})`,
      `Solicitud de préstamo (form ${form.id}, public id ${form.publicId})`,
      number,
      'SMS',
      'The hosted page',
      `1 (${certificate.consent?.versionId})`,
      'Spanish',
      certificate.consent?.sha256 ?? 'no consent',
      `${t.config.publicUrl}/f/${form.publicId}`,
      'Page opened',
      'Consent text shown',
      'Code requested',
      'Code entered',
      'the right code',
      'Verified',
      `${certificate.attempts.count} for the code that verified, the right one included`,
      verification.ip ?? 'no ip',
      certificate.record.sha256,
      "1 of Acme Inc.'s certificates",
      'none: this is the first',
      file.signature.keyId,
      `${t.config.publicUrl}/certificates/${certificate.id}`,
      `veriform-certificate-${certificate.id}.json`,
    ]) {
      expect(all, fact).toContain(fact);
    }
    expect(joined).toContain(
      `npx veriform-verify-certificate veriform-certificate-${certificate.id}.pdf --keys-url ${t.config.publicUrl}/.well-known/veriform-certificate-keys.json`,
    );
    expect(dense).toContain(file.signature.value);
    expect(dense).toContain(verification.userAgent ?? 'no user agent');
    for (const event of certificate.timeline)
      expect(all).toContain(event.at.replace('T', ' ').replace('Z', ' UTC'));
    // The consent text in full: Spanish as it is; what the standard fonts cannot draw, by code point, said so.
    expect(joined).toContain(
      'Acepto que Acme Inc. me envíe mensajes de texto sobre mi solicitud al número de arriba. ¿Dudas? Escríbanos — gracias [U+1F600] [U+65E5][U+672C]',
    );
    expect(all).toContain('Characters that the PDF standard fonts cannot show are printed as [U+XXXX]');
    // The number only masked, nowhere in full.
    expect(all).not.toContain(verification.cellPhone.slice(2));

    // The QR code opens the public check page: the drawn modules are the code of that address, and it is a link.
    const { modules } = createQrCode(`${t.config.publicUrl}/certificates/${certificate.id}`, {
      errorCorrectionLevel: 'M',
    });
    const unit = 96 / modules.size;
    const dark = new Set<string>();
    const rectangles = pdfRectangles(pdf);
    const left = Math.min(...rectangles.map((r) => r.x));
    const top = Math.max(...rectangles.map((r) => r.y + r.height));
    for (const r of rectangles) {
      const row = Math.round((top - r.y) / unit) - 1;
      for (
        let col = Math.round((r.x - left) / unit);
        col < Math.round((r.x + r.width - left) / unit);
        col += 1
      )
        dark.add(`${row},${col}`);
    }
    const expected = new Set<string>();
    for (let row = 0; row < modules.size; row += 1)
      for (let col = 0; col < modules.size; col += 1)
        if (modules.get(row, col)) expected.add(`${row},${col}`);
    expect(dark).toEqual(expected);
    expect(text).toContain(`/URI (${t.config.publicUrl}/certificates/${certificate.id})`);

    // Each download is audited, as each view of the JSON is.
    const events = await t.db.db
      .select({ action: auditEvents.action, targetId: auditEvents.targetId, changes: auditEvents.changes })
      .from(auditEvents)
      .where(and(eq(auditEvents.accountId, owner.accountId), eq(auditEvents.targetType, 'verification')));
    expect(events.filter((e) => e.action === 'verification.certificate_downloaded')).toEqual([
      {
        action: 'verification.certificate_downloaded',
        targetId: String(verification.id),
        changes: { certificateId: certificate.id, format: 'pdf' },
      },
      {
        action: 'verification.certificate_downloaded',
        targetId: String(verification.id),
        changes: { certificateId: certificate.id, format: 'pdf' },
      },
    ]);
  });

  it('catches every changed byte of a real PDF and of its JSON, a cut and an addition; the CLI says so', async () => {
    const owner = await newOwner(t.app, 'Offline Check LLC');
    const form = await liveForm(owner, 'I agree to be texted about my application.');
    const verification = await verifyOnHostedPage(t, form);
    const pdf = (await download(owner, verification.id)).rawPayload;
    const { body: json, file } = await jsonOf(owner, verification.id);
    const keys = parseKeys(await keysOf());
    expect(verifyCertificateFile(pdf, keys).verdict).toBe('authentic');

    // Every byte of both, each flipped in turn: never authentic. (The PDF: its size in bytes, one seal check each.)
    for (const bytes of [pdf, Buffer.from(json, 'utf8')]) {
      const copy = Buffer.from(bytes);
      for (let position = 0; position < copy.length; position += 1) {
        const original = copy[position] ?? 0;
        copy[position] = original ^ 0x01;
        const { verdict } = verifyCertificateFile(copy, keys);
        if (verdict === 'authentic') expect.fail(`byte ${position} of ${bytes.length} flipped is authentic`);
        copy[position] = original;
      }
    }
    const reasonOf = (bytes: Buffer, given = keys) => {
      const { verdict, reason, format } = verifyCertificateFile(bytes, given);
      return { verdict, reason, format };
    };
    expect(reasonOf(pdf.subarray(0, pdf.length - 1))).toEqual({
      verdict: 'altered',
      reason: 'the file does not end with its seal: it was cut, or bytes were added',
      format: 'pdf',
    });
    expect(reasonOf(pdf.subarray(0, pdf.length - 200)).verdict).toBe('altered');
    expect(reasonOf(Buffer.concat([pdf, Buffer.from('\n')])).verdict).toBe('altered');
    expect(reasonOf(Buffer.concat([pdf, Buffer.from('%%EOF\n')])).verdict).toBe('altered');
    const middle = Math.floor(pdf.length / 2);
    expect(reasonOf(Buffer.concat([pdf.subarray(0, middle), pdf.subarray(middle + 1)]))).toEqual({
      verdict: 'altered',
      reason: 'the seal does not match: the PDF was changed after it was issued',
      format: 'pdf',
    });
    // The seal taken off (the PDF as pdf-lib wrote it), or moved before the end.
    const unsealed = pdf.subarray(0, pdf.lastIndexOf('%VERIFORM-SEAL'));
    expect(reasonOf(unsealed)).toEqual({
      verdict: 'altered',
      reason: 'the seal at the end of the file is missing or damaged',
      format: 'pdf',
    });
    // Not a certificate at all.
    expect(reasonOf(Buffer.from('%PDF-1.7\n%%EOF\n'))).toEqual({
      verdict: 'unknown',
      reason: 'a PDF, but not a Veriform certificate: no seal and no attached certificate',
      format: null,
    });
    expect(reasonOf(Buffer.from('hello')).verdict).toBe('unknown');
    // Only the key list of another issuer: not ours to judge.
    const other = deriveSigningKey('another issuer entirely, 32 characters at least', 1);
    const theirs = parseKeys({
      keys: [{ keyId: other.keyId, alg: 'Ed25519', publicKey: other.publicKey, created: '', retired: null }],
    });
    expect(reasonOf(pdf, theirs)).toEqual({
      verdict: 'unknown',
      reason: `the attached certificate: signed by ${file.signature.keyId}, which is not among the keys given`,
      format: 'pdf',
    });

    // The offline checker, as a user runs it.
    const dir = await mkdtemp(join(tmpdir(), 'veriform-certificate-pdf-'));
    const altered = Buffer.from(pdf);
    altered[middle] = (altered[middle] ?? 0) ^ 0x20;
    await writeFile(join(dir, 'certificate.pdf'), pdf);
    await writeFile(join(dir, 'altered.pdf'), altered);
    await writeFile(join(dir, 'keys.json'), JSON.stringify(await keysOf()));
    const cli = join(repoRoot, 'packages', 'verify-certificate', 'src', 'cli.js');
    const run = (file: string) =>
      new Promise<{ code: number; stdout: string }>((resolve) => {
        execFile(
          process.execPath,
          [cli, join(dir, file), '--keys', join(dir, 'keys.json')],
          (error, stdout) => resolve({ code: error ? Number(error.code) : 0, stdout }),
        );
      });
    expect(await run('certificate.pdf')).toEqual({
      code: 0,
      stdout: `authentic, issued ${file.certificate.issued} by Offline Check LLC (certificate ${file.certificate.id})\n`,
    });
    expect(await run('altered.pdf')).toEqual({
      code: 1,
      stdout: 'altered (the seal does not match: the PDF was changed after it was issued)\n',
    });
  });

  it("answers 404 for another account's verification, 401 without a session, and issues nothing by asking", async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const verification = await insertVerification(t, form);
    const stranger = await newOwner(t.app);
    expect((await stranger.c.get(url(stranger, verification.id, 'pdf'))).statusCode).toBe(404);
    expect((await stranger.c.get(`/api/verifications/${verification.id}/certificate.pdf`)).statusCode).toBe(
      404,
    );
    expect((await owner.c.get(url(owner, 999_999_999, 'pdf'))).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: url(owner, verification.id, 'pdf') })).statusCode).toBe(
      401,
    );
    const downloads = await t.db.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'verification.certificate_downloaded'));
    expect(downloads.filter((e) => e.targetId === String(verification.id))).toEqual([]);
    // A certificate with no consent and no hosted page (made in the database, as API v1's are) renders too.
    const pdf = (await download(owner, verification.id)).rawPayload;
    expect(pdfLines(pdf).join('\n')).toContain(
      'The form had no consent text when this verification was made.',
    );
    expect(verifyCertificateFile(pdf, parseKeys(await keysOf())).verdict).toBe('authentic');
  });
});

describe('ten PDF downloads at once', () => {
  it('issue one certificate and answer the same bytes ten times, each download audited', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const verification = await insertVerification(t, form);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => owner.c.get(url(owner, verification.id, 'pdf'))),
    );
    expect(answers.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    expect(new Set(answers.map((r) => r.rawPayload.toString('base64'))).size).toBe(1);
    const rows = await t.db.db
      .select()
      .from(schema.verificationCertificates)
      .where(eq(schema.verificationCertificates.verificationId, verification.id));
    expect(rows).toHaveLength(1);
    const downloads = await t.db.db
      .select({ changes: auditEvents.changes })
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.accountId, owner.accountId),
          eq(auditEvents.action, 'verification.certificate_downloaded'),
        ),
      );
    expect(downloads).toEqual(Array(10).fill({ changes: { certificateId: rows[0]?.id, format: 'pdf' } }));
  });
});

describe('GET /api/v1/verifications/{id}/certificate.pdf', () => {
  it('answers the same PDF to a key with verifications:read; 403 without it; 404 while not approved or another account’s', async () => {
    const owner = await newOwner(t.app);
    const form = await liveForm(owner);
    const verification = await verifyOnHostedPage(t, form);
    const [attempt] = await t.db.db
      .select({ id: verificationAttempts.id })
      .from(verificationAttempts)
      .where(eq(verificationAttempts.verificationId, verification.id));
    if (!attempt) throw new Error('no attempt');
    const reader = (await newApiKey(owner, ['verifications:read'], 'live')).key;
    const writer = (await newApiKey(owner, ['verifications:write'], 'live')).key;
    const v1 = (key: string, id: string, suffix = '.pdf') =>
      t.app.inject({
        method: 'GET',
        url: `/api/v1/verifications/${id}/certificate${suffix}`,
        headers: { authorization: `Bearer ${key}` },
      });

    const read = await v1(reader, attempt.id);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.headers['content-type']).toBe('application/pdf');
    const json = await v1(reader, attempt.id, '');
    const { id } = (JSON.parse(json.body) as SignedFile).certificate;
    expect(read.headers['content-disposition']).toBe(`attachment; filename="veriform-certificate-${id}.pdf"`);
    expect(json.headers['content-disposition']).toBe(
      `attachment; filename="veriform-certificate-${id}.json"`,
    );
    expect(read.rawPayload.equals((await download(owner, verification.id)).rawPayload)).toBe(true);
    expect(attachmentOf(read.rawPayload).bytes.toString('utf8')).toBe(json.body);
    expect(verifyCertificateFile(read.rawPayload, parseKeys(await keysOf())).verdict).toBe('authentic');
    const downloads = await t.db.db
      .select({ changes: auditEvents.changes })
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.accountId, owner.accountId),
          eq(auditEvents.action, 'verification.certificate_downloaded'),
        ),
      );
    expect(downloads).toHaveLength(2);

    const refused = await v1(writer, attempt.id);
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['content-type']).toContain('application/problem+json');

    const pending = `pending-pdf-${verification.id}`;
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
    const stranger = await newOwner(t.app);
    expect(
      (await v1((await newApiKey(stranger, ['verifications:read'], 'live')).key, attempt.id)).statusCode,
    ).toBe(404);
  });
});

describe('key rotation and the PDF seal', () => {
  it('keeps a PDF sealed under the old generation verifying, and seals each PDF with its certificate’s key', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const oldVerification = await insertVerification(t, form);
    const old = (await download(owner, oldVerification.id)).rawPayload;
    const before = await keysOf();

    const rotated = await buildTestApp(t.db, { env: { CERTIFICATE_KEY_GENERATION: '2' } });
    try {
      const published = parseKeys(await keysOf(rotated.app));
      expect(verifyCertificateFile(old, published).verdict).toBe('authentic');
      // The old certificate's PDF, asked of the rotated server: still sealed with the key that signed it, same bytes.
      expect((await download(owner, oldVerification.id, rotated.app)).rawPayload.equals(old)).toBe(true);

      const fresh = (await download(owner, (await insertVerification(t, form)).id, rotated.app)).rawPayload;
      const result = verifyCertificateFile(fresh, published);
      expect(result.verdict).toBe('authentic');
      expect(result.keyId).toBe(rotated.app.services.certificates.keyId);
      expect(result.keyId).not.toBe(verifyCertificateFile(old, published).keyId);
      // The key list from before the rotation does not know the new key.
      expect(verifyCertificateFile(fresh, parseKeys(before)).verdict).toBe('unknown');
    } finally {
      await rotated.app.close();
    }
  });
});
