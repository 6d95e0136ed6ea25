import { writeFile } from 'node:fs/promises';
import { CERTIFICATE_KEYS_PATH, checkCertificate } from '@veriform/sdk';
import { veriform } from './veriform.ts';

// The certificate of an approved verification: VERIFICATION_ID, or the newest approved one.
const [newest] = (await veriform.verifications.list({ status: 'approved', limit: 1 })).data;
const id = process.env.VERIFICATION_ID ?? newest?.id;
if (!id) throw new Error('No approved verification yet: run start-and-check.ts first.');

// Keep the bytes exactly as they came: a reformatted file no longer verifies.
const { data, bytes } = await veriform.verifications.certificate(id);
await writeFile(`certificate-${id}.json`, bytes);
console.log(`certificate ${data.certificate.id} signed by ${data.signature.keyId}`);

// Checked against the keys this server publishes…
const json = await veriform.certificates.check(bytes);
console.log(`JSON: ${json.verdict}, issued ${json.issuedAt} by ${json.company}`);

// …or, with no client, against the key list's URL (or a copy you keep: `{ keys }`). The PDF is sealed the same way.
const pdf = await veriform.verifications.certificatePdf(id);
await writeFile(`certificate-${id}.pdf`, pdf);
const keysUrl = new URL(CERTIFICATE_KEYS_PATH, process.env.VERIFORM_BASE_URL);
const sealed = await checkCertificate(pdf, { keysUrl });
console.log(`PDF: ${sealed.verdict}`);
