import {
  type CertificateVerdict,
  type PublishedKey,
  parseKeys,
  verifyCertificateFile,
} from '@veriform/verify-certificate';
import type { FetchLike } from './transport.ts';

/**
 * Certificate checking, by `@veriform/verify-certificate` (the offline checker; ADR 24): a JSON or PDF certificate's
 * bytes against the issuer's published Ed25519 keys. No account and no key are needed, nor trust in the server.
 */

export type { CertificateVerdict };

/** Where the issuer publishes every key that ever signed (retired ones included). */
export const CERTIFICATE_KEYS_PATH = '/.well-known/veriform-certificate-keys.json';

export type CertificateKeysSource =
  /** The key list as published (`{"keys": [...]}`), parsed or as text: a copy you keep. */
  | { keys: unknown }
  /** Where to read it, e.g. `https://<veriform host>/.well-known/veriform-certificate-keys.json`. */
  | { keysUrl: string | URL; fetch?: FetchLike };

async function keysOf(source: CertificateKeysSource): Promise<PublishedKey[]> {
  if ('keys' in source)
    return parseKeys(typeof source.keys === 'string' ? JSON.parse(source.keys) : source.keys);
  const fetch = source.fetch ?? ((request: Request) => globalThis.fetch(request));
  const url = String(source.keysUrl);
  const response = await fetch(new Request(url, { headers: { accept: 'application/json' } }));
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return parseKeys(await response.json());
}

/**
 * The verdict on a certificate file, JSON or PDF, exactly as downloaded: `authentic` (signed by one of the keys, not
 * a byte changed), `altered`, or `unknown` (a key not in the list, or not a certificate). Throws only when the keys
 * cannot be read.
 */
export async function checkCertificate(
  bytes: Uint8Array | string,
  source: CertificateKeysSource,
): Promise<CertificateVerdict> {
  return verifyCertificateFile(bytes, await keysOf(source));
}
