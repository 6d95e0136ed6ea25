import { createHash, createPublicKey, verify } from 'node:crypto';
import { inflateSync } from 'node:zlib';
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
 * A PDF certificate carries that file as an attachment and ends with a seal over all its other bytes (see
 * PDF_SEAL_PREFIX); it is authentic when the seal verifies, the attached file does, and one key signed both.
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

/** Not a certificate at all: nothing in it says it was one. */
const notACertificate = (reason) => ({
  verdict: 'unknown',
  reason,
  certificateId: null,
  issuedAt: null,
  company: null,
  format: null,
});

/**
 * The verdict on a certificate file's bytes, JSON or PDF: `authentic` (signed by one of `keys`, not a byte changed),
 * `altered` (recognisably a certificate, or what is left of one, that does not verify), or `unknown` (signed by a key
 * id that is not among `keys` — another server's, or a key list out of date — or not a certificate at all). `keys` as
 * parseKeys answers. `format` is what the file was taken for: `json`, `pdf`, or null when neither.
 */
export function verifyCertificateFile(bytes, keys) {
  const buffer = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : Buffer.from(bytes);
  if (looksLikePdf(buffer)) return { format: 'pdf', ...verifyPdf(buffer, keys) };
  return verifyJson(buffer, keys);
}

function verifyJson(buffer, keys) {
  // A changed byte may leave the file unreadable, but one byte cannot remove both names.
  const recognisable = buffer.includes('"certificate"') || buffer.includes('"signature"');
  const result = checkJson(buffer, keys);
  if (result.verdict === 'altered' && !recognisable && result.certificateId === null)
    return notACertificate(`not a certificate (${result.reason})`);
  return { ...result, format: 'json' };
}

/**
 * Bounds on a JSON certificate, checked on the bytes before anything parses them (issue #33 item 7): JSON.parse and
 * the canonical form cost time in proportion to the values and the nesting, and a 2 MB upload nested a million levels
 * deep held the server's only thread for seconds (measured: 1.2 s for `[[[…]]]`, 6.4 s for a certificate whose field
 * held it). A certificate is about 1 KB, 5 levels deep, with some 60 values; its largest possible (a 5,000-character
 * consent text in 4-byte characters, a long timeline) some 40 KB and a few hundred values. The bounds leave room for
 * growth while keeping the worst file within them to a few milliseconds of parsing and canonicalising.
 */
export const MAX_CERTIFICATE_JSON_BYTES = 256 * 1024;
export const MAX_CERTIFICATE_JSON_DEPTH = 16;
export const MAX_CERTIFICATE_JSON_VALUES = 4096;

const BRACE_OPEN = 0x7b;
const BRACE_CLOSE = 0x7d;
const BRACKET_OPEN = 0x5b;
const BRACKET_CLOSE = 0x5d;
const COMMA = 0x2c;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Why JSON bytes are beyond the bounds, or null: the nesting of objects and arrays and the number of values (each
 * opening bracket or brace and each comma, strings skipped), counted in one pass with no recursion and no parsing,
 * stopping at the first bound passed. Bytes that are not JSON at all pass here and fail to parse.
 */
function beyondBounds(buffer) {
  let depth = 0;
  let values = 0;
  let inString = false;
  for (let i = 0; i < buffer.length; i++) {
    const byte = buffer[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) inString = true;
    else if (byte === BRACE_OPEN || byte === BRACKET_OPEN) {
      if (++depth > MAX_CERTIFICATE_JSON_DEPTH)
        return `nested deeper than ${MAX_CERTIFICATE_JSON_DEPTH} levels: no certificate is`;
      if (++values > MAX_CERTIFICATE_JSON_VALUES)
        return `more than ${MAX_CERTIFICATE_JSON_VALUES} values: no certificate has as many`;
    } else if (byte === BRACE_CLOSE || byte === BRACKET_CLOSE) depth--;
    else if (byte === COMMA && ++values > MAX_CERTIFICATE_JSON_VALUES)
      return `more than ${MAX_CERTIFICATE_JSON_VALUES} values: no certificate has as many`;
  }
  return null;
}

/** The UTF-8 byte order mark: no certificate starts with one; a file that does had it put there (an editor). */
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

function checkJson(buffer, keys) {
  if (buffer.length > MAX_CERTIFICATE_JSON_BYTES)
    return altered(`larger than ${MAX_CERTIFICATE_JSON_BYTES / 1024} KB: no certificate is this large`);
  const beyond = beyondBounds(buffer);
  if (beyond) return altered(beyond);
  // Every byte must be a signed one. TextDecoder drops a byte order mark put before the JSON without a word unless
  // told not to (`ignoreBOM`): it is kept, read past to name the certificate, and makes the file altered.
  const bom = buffer.subarray(0, UTF8_BOM.length).equals(UTF8_BOM);
  let text;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(buffer);
  } catch {
    return altered('not UTF-8 text');
  }
  if (bom) text = text.slice(1);
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
  if (bom) return altered('a byte order mark was put before the JSON: the file was changed', certificate);
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

// ---- PDF ------------------------------------------------------------------------------------------------------------

/**
 * A PDF certificate ends with one line after `%%EOF`: `%VERIFORM-SEAL <keyId> <base64 Ed25519 signature>` and a line
 * feed, the signature being of every byte before that line. PDF readers ignore what follows `%%EOF`.
 */
export const PDF_SEAL_PREFIX = '%VERIFORM-SEAL ';
/** The largest attached certificate read out of a PDF, inflated. */
const MAX_ATTACHMENT_BYTES = 1024 * 1024;
const SEAL_LINE = /^%VERIFORM-SEAL (vfk_[0-9a-f]{16}) ([A-Za-z0-9+/]{86}==)$/;

/** A PDF by its header, or by the seal at its end (a changed header byte must not make it "not a certificate"). */
const looksLikePdf = (buffer) =>
  buffer.subarray(0, 5).toString('latin1') === '%PDF-' ||
  buffer.subarray(-200).includes(PDF_SEAL_PREFIX, 0, 'latin1');

/** The seal, or why there is none: the file must end with exactly one seal line, after `%%EOF`. */
function readSeal(buffer) {
  const missing = (reason) => ({ ok: false, reason });
  if (buffer.at(-1) !== 0x0a)
    return missing('the file does not end with its seal: it was cut, or bytes were added');
  const start = buffer.lastIndexOf(0x0a, buffer.length - 2) + 1;
  const match = SEAL_LINE.exec(buffer.subarray(start, buffer.length - 1).toString('latin1'));
  if (!match) return missing('the seal at the end of the file is missing or damaged');
  const value = strictBase64(match[2], 64);
  if (!value) return missing('the seal is not a 64-byte base64 signature');
  const signed = buffer.subarray(0, start);
  if (!signed.subarray(-6).equals(Buffer.from('%%EOF\n')))
    return missing('the seal does not follow the end of the PDF (%%EOF)');
  return { ok: true, keyId: match[1], value, signed };
}

/**
 * The attached certificate: the one embedded file's stream, found by its dictionary (`/Type /EmbeddedFile`, `/Length`,
 * `/Filter /FlateDecode`) rather than with a PDF parser. That is enough because nothing is trusted from it until the
 * seal over the whole file verified, and the server writes plain objects (no object streams) for this. Null when
 * there is not exactly one, or it cannot be read.
 */
function attachmentOf(pdf) {
  const text = pdf.toString('latin1');
  const marker = '/Type /EmbeddedFile';
  const at = text.indexOf(marker);
  if (at === -1 || text.indexOf(marker, at + marker.length) !== -1) return null;
  const objectStart = text.lastIndexOf(' obj', at);
  const streamStart = text.indexOf('stream\n', at);
  if (objectStart === -1 || streamStart === -1) return null;
  const dictionary = text.slice(objectStart, streamStart);
  const length = /\/Length (\d+)\b/.exec(dictionary);
  if (!length) return null;
  const from = streamStart + 'stream\n'.length;
  const to = from + Number(length[1]);
  if (!/^\s*endstream/.test(text.slice(to, to + 12))) return null;
  const data = pdf.subarray(from, to);
  if (!/\/Filter \/FlateDecode\b/.test(dictionary)) return data;
  try {
    // A certificate is a few kilobytes; an upload that inflates past this is not one (and must not fill memory).
    return inflateSync(data, { maxOutputLength: MAX_ATTACHMENT_BYTES });
  } catch {
    return null;
  }
}

/**
 * The seal is checked first (one Ed25519 verification over the bytes: a changed byte anywhere stops here), then the
 * attached JSON as a JSON file, then that the two agree: the seal's key is the one that signed the certificate, and
 * the attachment is named for it.
 */
function verifyPdf(buffer, keys) {
  const seal = readSeal(buffer);
  const sealKey = seal.ok ? keys.find((k) => k.keyId === seal.keyId) : undefined;
  if (sealKey && !verify(null, seal.signed, sealKey.publicKey, seal.value))
    return altered('the seal does not match: the PDF was changed after it was issued');
  const attachment = attachmentOf(seal.ok ? seal.signed : buffer);
  if (!attachment) {
    if (!seal.ok)
      return buffer.includes(PDF_SEAL_PREFIX)
        ? altered(seal.reason)
        : notACertificate('a PDF, but not a Veriform certificate: no seal and no attached certificate');
    if (!sealKey)
      return {
        ...notACertificate(`sealed by ${seal.keyId}, which is not among the keys given`),
        format: 'pdf',
      };
    return altered('sealed, but without its attached certificate');
  }
  const inner = checkJson(attachment, keys);
  const certificate = {
    certificateId: inner.certificateId,
    issuedAt: inner.issuedAt,
    company: inner.company,
  };
  if (!seal.ok) return { verdict: 'altered', reason: seal.reason, ...certificate };
  if (inner.verdict !== 'authentic')
    return { verdict: inner.verdict, reason: `the attached certificate: ${inner.reason}`, ...certificate };
  if (seal.keyId !== inner.keyId)
    return {
      verdict: 'altered',
      reason: `the seal's key (${seal.keyId}) is not the certificate's (${inner.keyId})`,
      ...certificate,
    };
  const name = `(veriform-certificate-${inner.certificateId}.json)`;
  if (!buffer.includes(name, 0, 'latin1'))
    return { verdict: 'altered', reason: 'the attached certificate is not named for it', ...certificate };
  return inner;
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
