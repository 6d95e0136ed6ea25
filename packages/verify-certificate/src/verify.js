import { createHash, createPublicKey, verify } from 'node:crypto';
import canonicalize from 'canonicalize';

/**
 * Checking a Veriform verification certificate (issue #19, docs/decisions/0024-verification-certificates.md) with
 * nothing but Node and the published public keys: no database, no trust in the server that issued it.
 *
 * A certificate file is the canonical JSON (RFC 8785) of `{certificate, signature: {alg, keyId, value}}`, where
 * `value` is the base64 Ed25519 signature of the canonical JSON of `certificate`. The file must be exactly canonical
 * (one trailing newline tolerated): a checker that re-read a reformatted file could not promise that every changed
 * byte is caught, since whitespace, key order and escapes carry no meaning once parsed.
 *
 * Plain JavaScript (types in verify.d.ts), so `npx veriform-verify-certificate` runs with no build step.
 */

export const ALG = 'Ed25519';

/** The raw 32-byte public key as SPKI DER: this fixed prefix (RFC 8410) followed by the key. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** Canonical JSON (RFC 8785, JCS) of a JSON value. */
export function canonicalJson(value) {
  const text = canonicalize(value);
  if (typeof text !== 'string') throw new TypeError('not a JSON value');
  return text;
}

export const sha256Hex = (text) => createHash('sha256').update(text, 'utf8').digest('hex');

/** `vfk_` + the first 16 hex characters of the SHA-256 of the raw public key: short, stable, derived, not chosen. */
export const keyIdOf = (rawPublicKey) =>
  `vfk_${createHash('sha256').update(rawPublicKey).digest('hex').slice(0, 16)}`;

/** Strict base64 (padding included, no stray characters): Node's decoder would skip what it cannot read. */
function strictBase64(text, bytes) {
  if (typeof text !== 'string') return null;
  const decoded = Buffer.from(text, 'base64');
  return decoded.length === bytes && decoded.toString('base64') === text ? decoded : null;
}

const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);
const hasExactly = (value, keys) =>
  isObject(value) &&
  Object.keys(value).length === keys.length &&
  keys.every((key) => Object.hasOwn(value, key));

/** The published key list (`/.well-known/veriform-certificate-keys.json`) read and checked: id ↔ key. */
export function parseKeys(json) {
  const list = isObject(json) && Array.isArray(json.keys) ? json.keys : null;
  if (!list) throw new Error('not a key list: expected {"keys": [...]}');
  return list.map((key) => {
    const raw = isObject(key) && key.alg === ALG ? strictBase64(key.publicKey, 32) : null;
    if (!raw || keyIdOf(raw) !== key.keyId)
      throw new Error(`not an ${ALG} key of this list: ${JSON.stringify(key)}`);
    return {
      keyId: key.keyId,
      publicKey: createPublicKey({
        key: Buffer.concat([ED25519_SPKI_PREFIX, raw]),
        format: 'der',
        type: 'spki',
      }),
    };
  });
}

const altered = (reason, certificate) => ({ verdict: 'altered', reason, ...summaryOf(certificate) });

function summaryOf(certificate) {
  if (!isObject(certificate)) return { certificateId: null, issuedAt: null, company: null };
  const text = (value) => (typeof value === 'string' ? value : null);
  return {
    certificateId: text(certificate.id),
    issuedAt: text(certificate.issued),
    company: isObject(certificate.account) ? text(certificate.account.name) : null,
  };
}

/**
 * The verdict on a certificate file's bytes: `authentic` (signed by one of `keys`, not a byte changed), `altered`
 * (anything else: not canonical JSON, not a certificate's shape, a signature that does not verify), or `unknown` (well
 * formed, but signed by a key id that is not among `keys`: another server's, or a key list out of date). `keys` as
 * parseKeys answers.
 */
export function verifyCertificateFile(bytes, keys) {
  let text;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(
      typeof bytes === 'string' ? Buffer.from(bytes) : bytes,
    );
  } catch {
    return altered('not UTF-8 text');
  }
  if (text.endsWith('\n')) text = text.slice(0, -1);
  let file;
  try {
    file = JSON.parse(text);
  } catch {
    return altered('not JSON');
  }
  if (!hasExactly(file, ['certificate', 'signature']) || !isObject(file.certificate))
    return altered('not a certificate: expected {"certificate": {...}, "signature": {...}}');
  const { certificate, signature } = file;
  if (!hasExactly(signature, ['alg', 'keyId', 'value']) || signature.alg !== ALG)
    return altered(`not an ${ALG} signature`, certificate);
  let canonical;
  try {
    canonical = canonicalJson(file);
  } catch {
    return altered('not canonical JSON', certificate);
  }
  if (canonical !== text) return altered('not canonical JSON (RFC 8785): the file was changed', certificate);
  const value = strictBase64(signature.value, 64);
  if (!value) return altered('not a 64-byte base64 signature', certificate);
  const key = keys.find((k) => k.keyId === signature.keyId);
  if (!key)
    return {
      verdict: 'unknown',
      reason: `signed by ${String(signature.keyId)}, which is not among the keys given`,
      ...summaryOf(certificate),
    };
  const signed = Buffer.from(canonicalJson(certificate), 'utf8');
  if (!verify(null, signed, key.publicKey, value))
    return altered('the signature does not match', certificate);
  return { verdict: 'authentic', reason: null, keyId: key.keyId, ...summaryOf(certificate) };
}

/**
 * One account's certificates, as a chain (`certificates` are the signed `certificate` objects, in any order): `seq`
 * 1, 2, 3… with no gap, and each `chain.prevHash` the SHA-256 of the canonical JSON of the one before (null for the
 * first). A certificate removed, added or edited shows as the first `seq` where the links break.
 */
export function checkChain(certificates) {
  const sorted = [...certificates].sort((a, b) => (a?.chain?.seq ?? 0) - (b?.chain?.seq ?? 0));
  let prevHash = null;
  for (const [index, certificate] of sorted.entries()) {
    const seq = certificate?.chain?.seq;
    if (seq !== index + 1)
      return { ok: false, seq: index + 1, reason: `certificate ${index + 1} is missing (next is ${seq})` };
    if (certificate.chain.prevHash !== prevHash)
      return { ok: false, seq, reason: `prevHash is not the SHA-256 of certificate ${seq - 1}` };
    prevHash = sha256Hex(canonicalJson(certificate));
  }
  return { ok: true, count: sorted.length, headHash: prevHash };
}
