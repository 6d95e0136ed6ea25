import { deflateSync } from 'node:zlib';
import { CERTIFICATE_UPLOAD_MAX_BYTES, type CertificateCheck, type VerifyForm } from '@veriform/contracts';
import { schema } from '@veriform/db';
import {
  MAX_CERTIFICATE_JSON_BYTES,
  MAX_CERTIFICATE_JSON_DEPTH,
  MAX_CERTIFICATE_JSON_VALUES,
  parseKeys,
  verifyCertificateFile,
} from '@veriform/verify-certificate';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { htmlPage, svgWithScript, zipBomb } from '../../security/hostile-images.ts';
import { buildTestApp, useTestApp } from '../../test-support/app.ts';
import { TestClient } from '../../test-support/client.ts';
import { type FormPart, multipartBody } from '../../test-support/multipart.ts';
import { createPublicForm } from '../../test-support/public-verify.ts';
import { newOwner, nextIp, type Owner } from '../../test-support/teams.ts';
import { insertVerification } from '../verifications/test-helpers.ts';
import { CHECK_LIMIT, checkTexts } from './check.ts';
import { certificateFile } from './service.ts';

const t = useTestApp();
const { verificationCertificates } = schema;

const CHECK_URL = '/api/public/certificates/verify';

async function visitor(ip = nextIp()): Promise<TestClient> {
  const c = new TestClient(t.app, ip);
  await c.fetchCsrf();
  return c;
}

const filePart = (data: Buffer, name = 'file', filename = 'certificate.json'): FormPart => ({
  name,
  filename,
  contentType: 'application/json',
  data,
});

async function check(parts: FormPart[], c?: TestClient) {
  return (c ?? (await visitor())).postMultipart(CHECK_URL, multipartBody(parts));
}

async function issuedFile(owner: Owner, form: VerifyForm) {
  const verification = await insertVerification(t, form);
  const row = await t.app.services.certificates.issue(owner.accountId, verification.id);
  return { row, bytes: Buffer.from(certificateFile(row), 'utf8') };
}

describe('POST /api/public/certificates/verify', () => {
  it('a JSON certificate: authentic with its standing; one byte changed: altered; not a certificate: unknown', async () => {
    const owner = await newOwner(t.app, 'Checked Co');
    const form = await createPublicForm(owner);
    const { row, bytes } = await issuedFile(owner, form);

    const authentic = await check([filePart(bytes)]);
    expect(authentic.statusCode, authentic.body).toBe(200);
    expect(authentic.headers['cache-control']).toBe('no-store');
    expect(authentic.json()).toEqual({
      verdict: 'authentic',
      certificateId: row.id,
      issuedAt: row.createdAt.toISOString(),
      company: 'Checked Co',
      format: 'json',
      reason: null,
      standing: {
        status: 'valid',
        revokedAt: null,
        revocationReason: null,
        redactedAt: null,
        purgedAt: null,
        consentRevokedAt: null,
        reassignment: null,
      },
    } satisfies CertificateCheck);

    const changed = Buffer.from(bytes);
    const at = changed.indexOf('Checked Co');
    changed[at] = 'D'.charCodeAt(0);
    const altered = (await check([filePart(changed)])).json<CertificateCheck>();
    expect(altered).toMatchObject({
      verdict: 'altered',
      certificateId: row.id,
      company: 'Dhecked Co',
      format: 'json',
      reason: 'the signature does not match',
      standing: null,
    });

    for (const junk of [
      Buffer.from('hello, world'),
      Buffer.from('{"a":1}'),
      Buffer.from([0xff, 0xfe, 0x00]),
    ]) {
      const unknown = (await check([filePart(junk, 'file', 'notes.txt')])).json<CertificateCheck>();
      expect(unknown).toMatchObject({ verdict: 'unknown', certificateId: null, standing: null });
      expect(unknown.reason).toEqual(expect.any(String));
    }
  });

  it('a PDF certificate: authentic; one byte flipped anywhere in it: altered', async () => {
    const owner = await newOwner(t.app, 'PDF Co');
    const form = await createPublicForm(owner);
    const verification = await insertVerification(t, form);
    const downloaded = await owner.c.get(
      `/api/verifications/${verification.id}/certificate.pdf?account=${owner.accountId}`,
    );
    expect(downloaded.statusCode, downloaded.body).toBe(200);
    const pdf = downloaded.rawPayload;
    const row = await t.app.services.certificates.issue(owner.accountId, verification.id);
    const pdfPart = (data: Buffer) => filePart(data, 'file', 'certificate.pdf');
    const c = await visitor();

    expect((await check([pdfPart(pdf)], c)).json()).toEqual({
      verdict: 'authentic',
      certificateId: row.id,
      issuedAt: row.createdAt.toISOString(),
      company: 'PDF Co',
      format: 'pdf',
      reason: null,
      standing: {
        status: 'valid',
        revokedAt: null,
        revocationReason: null,
        redactedAt: null,
        purgedAt: null,
        consentRevokedAt: null,
        reassignment: null,
      },
    } satisfies CertificateCheck);
    // A byte at the start, in the middle and at the end (the seal).
    for (const position of [10, Math.floor(pdf.length / 2), pdf.length - 5]) {
      const copy = Buffer.from(pdf);
      copy[position] = (copy[position] ?? 0) ^ 0x01;
      const answer = (await check([pdfPart(copy)], c)).json<CertificateCheck>();
      expect(answer.verdict, `byte ${position}`).toBe('altered');
      expect(answer.standing).toBeNull();
    }
  });

  it('a revoked certificate is still authentic, and the answer says revoked, when and why', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const { row, bytes } = await issuedFile(owner, form);
    const revokedAt = new Date('2026-02-02T12:00:00.000Z');
    await t.db.db
      .update(verificationCertificates)
      .set({ revokedAt, revocationReason: 'Consumer disputed it' })
      .where(eq(verificationCertificates.id, row.id));
    expect((await check([filePart(bytes)])).json()).toMatchObject({
      verdict: 'authentic',
      standing: {
        status: 'revoked',
        revokedAt: revokedAt.toISOString(),
        revocationReason: 'Consumer disputed it',
        redactedAt: null,
      },
    });
  });

  it('hostile files are judged, never stored or a 5xx: a ZIP bomb, an SVG with a script, an HTML page → unknown', async () => {
    const c = await visitor();
    for (const [data, filename] of [
      [zipBomb(), 'certificate.zip'],
      [svgWithScript(), 'certificate.svg'],
      [htmlPage(), 'certificate.html'],
    ] as const) {
      const answer = await check([filePart(data, 'file', filename)], c);
      expect(answer.statusCode, filename).toBe(200);
      expect(answer.json(), filename).toMatchObject({
        verdict: 'unknown',
        certificateId: null,
        standing: null,
      });
    }
  });

  it('every byte of the file must be the signed one: a byte order mark or any byte put before or after is altered', async () => {
    const owner = await newOwner(t.app, 'Byte Co');
    const form = await createPublicForm(owner);
    const { row, bytes } = await issuedFile(owner, form);
    const c = await visitor();
    // Issue #33 item 7: an editor's UTF-8 byte order mark before the JSON left it "authentic".
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes]);
    expect((await check([filePart(bom)], c)).json()).toEqual({
      verdict: 'altered',
      certificateId: row.id,
      issuedAt: row.createdAt.toISOString(),
      company: 'Byte Co',
      format: 'json',
      reason: 'a byte order mark was put before the JSON: the file was changed',
      standing: null,
    } satisfies CertificateCheck);

    // The offline checker (packages/verify-certificate) reads the same bytes the same way.
    const keys = parseKeys(await t.app.services.certificates.keys());
    expect(verifyCertificateFile(bytes, keys).verdict).toBe('authentic');
    for (const [name, changed] of [
      ['BOM', bom],
      ['BOM after the trailing newline', Buffer.concat([bytes, Buffer.from('\n\ufeff')])],
      ['UTF-16 BOM', Buffer.concat([Buffer.from([0xfe, 0xff]), bytes])],
      ['space before', Buffer.concat([Buffer.from(' '), bytes])],
      ['newline before', Buffer.concat([Buffer.from('\n'), bytes])],
      ['space after', Buffer.concat([bytes, Buffer.from(' ')])],
      ['two newlines after', Buffer.concat([bytes, Buffer.from('\n\n')])],
      ['CRLF after', Buffer.concat([bytes, Buffer.from('\r\n')])],
      ['NUL after', Buffer.concat([bytes, Buffer.from([0])])],
    ] as const) {
      expect(verifyCertificateFile(changed, keys).verdict, name).toBe('altered');
    }
    // The one change tolerated (an editor's trailing newline) still is.
    expect(verifyCertificateFile(Buffer.concat([bytes, Buffer.from('\n')]), keys).verdict).toBe('authentic');
  });

  it('a JSON upload beyond what any certificate is (size, nesting, number of values) is refused before parsing', async () => {
    const c = await visitor();
    const signature = ',"signature":{"alg":"Ed25519","keyId":"vfk_0000000000000000","value":"x"}}';
    const nested = (levels: number) =>
      Buffer.from(`{"certificate":{"a":${'['.repeat(levels)}${']'.repeat(levels)}}${signature}`);
    const cases: [string, Buffer, string][] = [
      [
        'the issue: 2 MB nested a million levels deep in a certificate',
        nested(CERTIFICATE_UPLOAD_MAX_BYTES / 2 - 200),
        `larger than ${MAX_CERTIFICATE_JSON_BYTES / 1024} KB: no certificate is this large`,
      ],
      [
        'nested deeper than any certificate, within the size',
        nested(MAX_CERTIFICATE_JSON_DEPTH),
        `nested deeper than ${MAX_CERTIFICATE_JSON_DEPTH} levels: no certificate is`,
      ],
      [
        'more values than any certificate, within the size',
        Buffer.from(`{"certificate":{"a":[${'1,'.repeat(MAX_CERTIFICATE_JSON_VALUES)}1]}${signature}`),
        `more than ${MAX_CERTIFICATE_JSON_VALUES} values: no certificate has as many`,
      ],
    ];
    for (const [name, bytes, reason] of cases) {
      const answer = await check([filePart(bytes)], c);
      expect(answer.statusCode, name).toBe(200);
      expect(answer.json(), name).toMatchObject({
        verdict: 'altered',
        format: 'json',
        reason,
        standing: null,
      });
    }
    // Brackets and commas inside strings are text, not nesting: a certificate's own strings may hold them.
    const inStrings = Buffer.from(`{"certificate":{"a":"${'[{,'.repeat(20_000)}\\""}${signature}`);
    expect(verifyCertificateFile(inStrings, []).reason).toBe('not a 64-byte base64 signature');
    // At the bounds exactly, the file is read (and is no certificate).
    expect(verifyCertificateFile(nested(MAX_CERTIFICATE_JSON_DEPTH - 2), []).reason).toBe(
      'not a 64-byte base64 signature',
    );
  });

  it("the checker's work on the worst files is bounded: a few milliseconds of CPU, not seconds", () => {
    // CPU time of this thread (not wall time, which a shared machine stretches): what a check holds the event loop
    // for. Before the bounds the first file took 1–6 s; ten checks at once must leave /healthz its 100 ms
    // (check-event-loop.test.ts), and check.ts runs them one per turn of the event loop.
    const signature = ',"signature":{"alg":"Ed25519","keyId":"vfk_0000000000000000","value":"x"}}';
    const levels = (CERTIFICATE_UPLOAD_MAX_BYTES - 1024) / 2;
    const count = MAX_CERTIFICATE_JSON_VALUES - 10;
    const keyLength = Math.floor((MAX_CERTIFICATE_JSON_BYTES - 200) / count) - 6;
    const files: [string, Buffer][] = [
      [
        'the issue: 2 MB nested in a certificate',
        Buffer.from(`{"certificate":{"a":${'['.repeat(levels)}${']'.repeat(levels)}}${signature}`),
      ],
      ['2 MB of nesting', Buffer.from(`${'['.repeat(levels)}${']'.repeat(levels)}`)],
      [
        'the most distinct keys within the bounds',
        Buffer.from(
          `{"certificate":{${Array.from({ length: count }, (_, i) => `"${String(count - i).padStart(keyLength, 'k')}":1`).join(',')}}${signature}`,
        ),
      ],
      [
        'the most long strings within the bounds',
        Buffer.from(
          `{"certificate":{"a":[${Array.from({ length: count }, () => `"${'\\u00e9'.repeat(Math.floor(keyLength / 6))}"`).join(',')}]}${signature}`,
        ),
      ],
      [
        '2 MB that looks like a PDF',
        Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(levels * 2, 0x5b)]),
      ],
    ];
    for (const [name, bytes] of files) {
      expect(bytes.length, name).toBeLessThanOrEqual(CERTIFICATE_UPLOAD_MAX_BYTES);
      const cpuMs: number[] = [];
      for (let run = 0; run < 3; run++) {
        const before = process.threadCpuUsage();
        verifyCertificateFile(bytes, []);
        const used = process.threadCpuUsage(before);
        cpuMs.push((used.user + used.system) / 1000);
      }
      expect(Math.min(...cpuMs), `${name}: ${cpuMs.map(Math.round).join(', ')} ms`).toBeLessThan(25);
    }
  });

  it('a PDF whose attachment inflates to 200 MB is not inflated past 1 MB: not a certificate, answered at once', async () => {
    const deflated = deflateSync(Buffer.alloc(200 * 1024 * 1024), { level: 9 });
    const pdf = Buffer.concat([
      Buffer.from(
        `%PDF-1.7\n1 0 obj\n<< /Type /EmbeddedFile /Length ${deflated.length} /Filter /FlateDecode >>\nstream\n`,
      ),
      deflated,
      Buffer.from('\nendstream\nendobj\n%%EOF\n'),
    ]);
    expect(pdf.length).toBeLessThan(300 * 1024);
    const answer = await check([filePart(pdf, 'file', 'certificate.pdf')], await visitor());
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toMatchObject({ verdict: 'unknown', certificateId: null });
  });

  it('checks against retired keys too: a certificate signed before a rotation stays authentic', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const { bytes } = await issuedFile(owner, form);
    const rotated = await buildTestApp(t.db, { env: { CERTIFICATE_KEY_GENERATION: '7' } });
    try {
      const c = new TestClient(rotated.app, nextIp());
      await c.fetchCsrf();
      const answer = await c.postMultipart(CHECK_URL, multipartBody([filePart(bytes)]));
      expect(answer.json()).toMatchObject({ verdict: 'authentic', standing: { status: 'valid' } });
    } finally {
      await rotated.app.close();
    }
  });

  it('refuses, in words on `file`: no file, an empty one, two, one under another name, over 2 MB, not multipart', async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const { bytes } = await issuedFile(owner, form);
    const refusal = (message: string) => ({ file: [message], MainCode_: 'validation_error' });
    const c = await visitor();

    const none = await check([{ name: 'note', value: 'hi' }], c);
    expect(none.statusCode).toBe(400);
    expect(none.json()).toEqual(refusal(checkTexts.required));
    expect((await check([filePart(Buffer.alloc(0))], c)).json()).toEqual(refusal(checkTexts.required));
    expect((await check([filePart(bytes), filePart(bytes)], c)).json()).toEqual(refusal(checkTexts.tooMany));
    expect((await check([filePart(bytes, 'upload')], c)).json()).toEqual(refusal(checkTexts.required));
    const big = await check([filePart(Buffer.alloc(CERTIFICATE_UPLOAD_MAX_BYTES + 1, 0x20))], c);
    expect(big.statusCode).toBe(400);
    expect(big.json()).toEqual(refusal(checkTexts.tooLarge));
    expect(checkTexts.tooLarge).toBe(
      'The file is larger than 2 MB: a certificate is far smaller, so this is not one.',
    );
    // Exactly the limit is read (and is no certificate).
    const atLimit = await check([filePart(Buffer.alloc(CERTIFICATE_UPLOAD_MAX_BYTES, 0x20))], c);
    expect(atLimit.statusCode, atLimit.body).toBe(200);
    expect(atLimit.json()).toMatchObject({ verdict: 'unknown' });
    const json = await c.post(CHECK_URL, { file: bytes.toString('utf8') });
    expect(json.statusCode).toBe(400);
    expect(json.json()).toEqual(refusal(checkTexts.required));
    // No CSRF token: refused like every unsafe call.
    expect(
      (await c.postMultipart(CHECK_URL, multipartBody([filePart(bytes)]), { csrf: false })).statusCode,
    ).toBe(403);
  });

  it(`${CHECK_LIMIT.limit} checks per network in ${CHECK_LIMIT.windowMs / 60_000} minutes, counted at once: the rest 429; other networks go on`, async () => {
    const owner = await newOwner(t.app);
    const form = await createPublicForm(owner);
    const { bytes } = await issuedFile(owner, form);
    const c = await visitor();
    const body = multipartBody([filePart(bytes)]);
    const answers = await Promise.all(
      Array.from({ length: CHECK_LIMIT.limit + 10 }, () => c.postMultipart(CHECK_URL, body)),
    );
    const statuses = answers.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(CHECK_LIMIT.limit);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
    const limited = answers.find((r) => r.statusCode === 429);
    expect(limited?.json()).toEqual({ detail: checkTexts.tooManyChecks(600), MainCode_: 'rate_limited' });
    expect(limited?.headers['retry-after']).toBe('600');
    expect((await check([filePart(bytes)])).statusCode).toBe(200);
  });
});
