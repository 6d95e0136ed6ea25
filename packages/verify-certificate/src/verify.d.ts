import type { KeyObject } from 'node:crypto';

/** Types of verify.js (plain JavaScript, run without a build step). */

export declare const ALG: 'Ed25519';
export declare function canonicalJson(value: unknown): string;
export declare function sha256Hex(text: string): string;
export declare function keyIdOf(rawPublicKey: Uint8Array): string;
/** A PDF certificate's last line: this, the key id, a space, the base64 Ed25519 signature of every byte before it. */
export declare const PDF_SEAL_PREFIX: '%VERIFORM-SEAL ';

/** A JSON certificate larger, nested deeper or with more values than this is refused before it is parsed. */
export declare const MAX_CERTIFICATE_JSON_BYTES: number;
export declare const MAX_CERTIFICATE_JSON_DEPTH: number;
export declare const MAX_CERTIFICATE_JSON_VALUES: number;

export type PublishedKey = { keyId: string; publicKey: KeyObject };
export declare function parseKeys(json: unknown): PublishedKey[];

export type CertificateVerdict = {
  verdict: 'authentic' | 'altered' | 'unknown';
  /** Why it is not authentic; null when it is. */
  reason: string | null;
  keyId?: string;
  certificateId: string | null;
  issuedAt: string | null;
  company: string | null;
  /** What the file was taken for; null when it is neither a JSON nor a PDF certificate. */
  format: 'json' | 'pdf' | null;
};
export declare function verifyCertificateFile(
  bytes: Uint8Array | string,
  keys: readonly PublishedKey[],
): CertificateVerdict;

export type ChainCheck =
  | { ok: true; count: number; headHash: string | null }
  | { ok: false; seq: number; reason: string };
export declare function checkChain(certificates: readonly unknown[]): ChainCheck;
