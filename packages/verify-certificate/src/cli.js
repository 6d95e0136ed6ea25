#!/usr/bin/env node
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { parseKeys, verifyCertificateFile } from './verify.js';

/**
 * veriform-verify-certificate certificate.pdf|certificate.json (--keys keys.json | --keys-url https://…/.well-known/veriform-certificate-keys.json)
 *
 * Prints "authentic, issued <time> by <company>" and exits 0, or "altered (<why>)" and exits 1; "unknown" (exit 2) when
 * the signing key is not among the keys given or the file is not a certificate; 3 for a usage or reading error. A PDF
 * or a JSON certificate: the file's first bytes tell which, not its name. The keys come from where you choose:
 * the file names no key source of its own, since a forger would name theirs.
 */

const usage =
  'usage: veriform-verify-certificate <certificate.pdf|certificate.json> (--keys <keys.json> | --keys-url <https://…/.well-known/veriform-certificate-keys.json>)';

function fail(message) {
  console.error(message);
  process.exit(3);
}

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      keys: { type: 'string' },
      'keys-url': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
} catch (error) {
  fail(`${error instanceof Error ? error.message : String(error)}\n${usage}`);
}
const { values, positionals } = parsed;
if (values.help) {
  console.log(usage);
  process.exit(0);
}
const [file] = positionals;
if (!file || positionals.length > 1 || Boolean(values.keys) === Boolean(values['keys-url'])) fail(usage);

async function loadKeys() {
  if (values.keys) return JSON.parse(await readFile(values.keys, 'utf8'));
  const response = await fetch(values['keys-url'], { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`${values['keys-url']} answered ${response.status}`);
  return response.json();
}

let keys;
let bytes;
try {
  keys = parseKeys(await loadKeys());
  bytes = await readFile(file);
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}

const result = verifyCertificateFile(bytes, keys);
if (result.verdict === 'authentic') {
  console.log(
    `authentic, issued ${result.issuedAt} by ${result.company} (certificate ${result.certificateId})`,
  );
  process.exit(0);
}
console.log(`${result.verdict} (${result.reason})`);
process.exit(result.verdict === 'altered' ? 1 : 2);
