/**
 * Time to build and sign a verification certificate (issue #19), against a bare Ed25519 signature as the floor.
 *
 *     psql postgres://postgres@127.0.0.1:5432/postgres -c 'create database veriform_bench_certificates'
 *     node scripts/bench-certificates.ts --database-url postgres://postgres@127.0.0.1:5432/veriform_bench_certificates \
 *       [--certificates 200]
 *
 * Makes an account, a form with a consent version and `--certificates` verifications (straight in the database), then
 * issues each one's certificate through the service the routes call (`certificates.issue`: gathering the stored facts,
 * locking the account's chain head, canonical JSON, Ed25519, the insert) one after another, and reads each again
 * (already issued: one indexed lookup). The floor is `sign()` of the same bytes alone, and canonical JSON plus `sign()`
 * without the database. Then the PDF (render + seal, from the stored row) beside the JSON file, over at least 300, and
 * the offline check of each.
 */
import { createHash } from 'node:crypto';
import { parseArgs } from 'node:util';
import { schema } from '@veriform/db';
import { canonicalJson, parseKeys, verifyCertificateFile } from '@veriform/verify-certificate';
import { eq } from 'drizzle-orm';
import { openDatabase } from '../apps/server/src/database.ts';
import { systemClock } from '../apps/server/src/lib/clock.ts';
import { createAuditLog } from '../apps/server/src/modules/audit/log.ts';
import { deriveSigningKey } from '../apps/server/src/modules/certificates/keys.ts';
import { createCertificatePdfs } from '../apps/server/src/modules/certificates/pdf.ts';
import {
  certificateFile,
  createCertificateService,
  signedContent,
} from '../apps/server/src/modules/certificates/service.ts';
import { requireDatabaseUrl } from './support/bench-app.ts';
import { benchConfig } from './support/bench-config.ts';
import { ms, quantile } from './support/measure.ts';

const { values: args } = parseArgs({
  options: { 'database-url': { type: 'string' }, certificates: { type: 'string', default: '200' } },
});
const databaseUrl = requireDatabaseUrl(args['database-url']);
const n = Math.max(1, Number(args.certificates));

const config = benchConfig(databaseUrl);
const database = openDatabase(config);
await database.migrate();
const { db } = database;

const [account] = await db
  .insert(schema.accounts)
  .values({ displayName: 'Bench Certificates Inc.' })
  .returning({ id: schema.accounts.id });
if (!account) throw new Error('no account');
const [form] = await db
  .insert(schema.verifyForms)
  .values({ publicId: `bench-${Date.now()}`, accountId: account.id, name: 'Loan application', isLive: true })
  .returning({ id: schema.verifyForms.id });
if (!form) throw new Error('no form');
const text =
  'I agree that Bench Certificates Inc. may text me about my application at the number above. '.repeat(4);
const versionId = `cv_bench_${Date.now()}`;
const sha256 = createHash('sha256').update(text).digest('hex');
await db.insert(schema.consentVersions).values({
  id: versionId,
  verifyFormId: form.id,
  accountId: account.id,
  language: 'en',
  version: 1,
  text,
  sha256,
  requireCheckbox: true,
});
const rows = await db
  .insert(schema.verifications)
  .values(
    Array.from({ length: n }, (_, i) => ({
      accountId: account.id,
      verifyFormId: form.id,
      cellPhone: `+1415555${String(i % 10_000).padStart(4, '0')}`,
      verifyFormName: 'Loan application',
      verificationMethod: 'sms' as const,
      verifiedAt: new Date(),
      codeSentAt: new Date(),
      attempts: 1,
      ip: '203.0.113.7',
      userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148',
      consentVersionId: versionId,
      consentVersion: 1,
      consentLanguage: 'en' as const,
      consentSha256: sha256,
    })),
  )
  .returning({ id: schema.verifications.id });

const certificates = createCertificateService({
  db,
  clock: systemClock,
  config,
  audit: createAuditLog({ clock: systemClock }),
});

async function timed(run: () => Promise<unknown> | unknown): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

// The key's registration (once per process) and the first query's planning are not what a certificate costs.
await certificates.keys();
const issued: number[] = [];
for (const row of rows) issued.push(await timed(() => certificates.issue(account.id, row.id)));
const again: number[] = [];
for (const row of rows) again.push(await timed(() => certificates.issue(account.id, row.id)));

const [stored] = await db
  .select()
  .from(schema.verificationCertificates)
  .where(eq(schema.verificationCertificates.accountId, account.id))
  .limit(1);
if (!stored) throw new Error('no certificate');
const key = deriveSigningKey(config.secretKey, config.certificateKeyGeneration);
const content = signedContent(stored);
const bytes = Buffer.from(content, 'utf8');
const parsed: unknown = JSON.parse(content);
const repeat = 2000;
const bare: number[] = [];
const canonicalAndSign: number[] = [];
for (let i = 0; i < repeat; i += 1) {
  bare.push(await timed(() => key.sign(bytes)));
  canonicalAndSign.push(await timed(() => key.sign(Buffer.from(canonicalJson(parsed), 'utf8'))));
}

// The PDF (issue #19 item 3): rendering (pdf-lib, standard fonts, QR code, the JSON attached) and the seal, from the
// stored row, with no database; then the offline check of the same PDF and of its JSON.
const renderPdf = createCertificatePdfs(config);
const signedText = {
  file: certificateFile(stored),
  content,
  keyId: stored.keyId,
  signature: stored.signature,
};
const jsonFile: number[] = [];
const pdfBuilt: number[] = [];
let pdf: Buffer = Buffer.alloc(0);
for (let i = 0; i < Math.max(300, n); i += 1) {
  jsonFile.push(await timed(() => certificateFile(stored)));
  pdfBuilt.push(
    await timed(async () => {
      pdf = await renderPdf(signedText);
    }),
  );
}
const published = parseKeys(await certificates.keys());
const checkPdf: number[] = [];
const checkJson: number[] = [];
for (let i = 0; i < repeat; i += 1) {
  checkPdf.push(await timed(() => verifyCertificateFile(pdf, published)));
  checkJson.push(await timed(() => verifyCertificateFile(signedText.file, published)));
}

const line = (label: string, samples: number[]) =>
  console.log(
    `${label.padEnd(52)} median ${ms(quantile(samples, 0.5))}  p95 ${ms(quantile(samples, 0.95))}  (${samples.length})`,
  );
console.log(`certificate: ${bytes.length} bytes of canonical JSON, ${n} issued one after another`);
line('issue (facts + chain lock + canonical JSON + sign + insert)', issued);
line('read again (already issued)', again);
line('canonical JSON + Ed25519 sign, no database', canonicalAndSign);
line('bare Ed25519 sign (the floor)', bare);
console.log(`PDF: ${pdf.length} bytes`);
line('JSON file from the stored row', jsonFile);
line('PDF: render + seal, no database', pdfBuilt);
line('check a PDF offline (seal, attachment, signature)', checkPdf);
line('check its JSON offline', checkJson);
await database.close();
