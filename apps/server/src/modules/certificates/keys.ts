import { createPrivateKey, createPublicKey, hkdfSync, type KeyObject, sign } from 'node:crypto';
import { CERTIFICATE_ALG, type CertificateKeys } from '@veriform/contracts';
import type { Db } from '@veriform/db';
import { schema, transaction } from '@veriform/db';
import { keyIdOf } from '@veriform/verify-certificate';
import { and, asc, isNull, ne } from 'drizzle-orm';
import type { Clock } from '../../lib/clock.ts';

const { certificateSigningKeys } = schema;

/**
 * The certificate signing key (ADR 24): Ed25519, its 32-byte seed derived from SECRET_KEY by HKDF-SHA256 with the
 * generation in `info`, so running Veriform needs no new secret, and CERTIFICATE_KEY_GENERATION + 1 is a new key.
 * Only public keys are stored (certificate_signing_keys), each for good: a certificate verifies with its key id long
 * after SECRET_KEY or the generation changed.
 */

export type SigningKey = {
  keyId: string;
  /** Base64 of the raw 32-byte public key. */
  publicKey: string;
  sign(message: Buffer): Buffer;
};

/** PKCS #8 of an Ed25519 private key is this fixed prefix (RFC 8410) followed by the 32-byte seed. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export function deriveSigningKey(secretKey: string, generation: number): SigningKey {
  const seed = Buffer.from(
    hkdfSync('sha256', secretKey, Buffer.alloc(0), `veriform-certificate-signing-key:${generation}`, 32),
  );
  const privateKey: KeyObject = createPrivateKey({
    key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  });
  const { x } = createPublicKey(privateKey).export({ format: 'jwk' });
  if (!x) throw new Error('Ed25519 public key without x');
  const raw = Buffer.from(x, 'base64url');
  return {
    keyId: keyIdOf(raw),
    publicKey: raw.toString('base64'),
    sign: (message) => sign(null, message, privateKey),
  };
}

/**
 * Records the current key (once per process: the service memoises it) and retires every other key still marked
 * current; a key brought back (the generation lowered again) is current again. Two processes of different generations (a rolling restart) retire each other's on start; each
 * keeps signing with its own, and both keys stay published.
 */
export async function registerSigningKey(db: Db, clock: Clock, key: SigningKey): Promise<void> {
  await transaction(db, async (tx) => {
    await tx
      .insert(certificateSigningKeys)
      .values({ keyId: key.keyId, publicKey: key.publicKey, createdAt: clock.now() })
      .onConflictDoUpdate({ target: certificateSigningKeys.keyId, set: { retiredAt: null } });
    await tx
      .update(certificateSigningKeys)
      .set({ retiredAt: clock.now() })
      .where(and(ne(certificateSigningKeys.keyId, key.keyId), isNull(certificateSigningKeys.retiredAt)));
  });
}

/** Every key that ever signed, oldest first: what `/.well-known/veriform-certificate-keys.json` publishes. */
export async function publishedKeys(db: Db): Promise<CertificateKeys> {
  const rows = await db
    .select()
    .from(certificateSigningKeys)
    .orderBy(asc(certificateSigningKeys.createdAt), asc(certificateSigningKeys.keyId));
  return {
    keys: rows.map((row) => ({
      keyId: row.keyId,
      alg: CERTIFICATE_ALG,
      publicKey: row.publicKey,
      created: row.createdAt.toISOString(),
      retired: row.retiredAt?.toISOString() ?? null,
    })),
  };
}
