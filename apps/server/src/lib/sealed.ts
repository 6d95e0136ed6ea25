import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Small secrets that must rest in the database for a short while (a verification code inside a queued job) are
 * sealed with AES-256-GCM: whoever reads the job table without SECRET_KEY learns nothing, and a sealed value cannot
 * be altered or moved to another record (the `context`, e.g. the attempt id, is authenticated with it).
 *
 * Format: `v1.` + base64url(iv[12] ‖ tag[16] ‖ ciphertext). The key is derived from SECRET_KEY with HKDF under its
 * own label, so it is independent of every other use of the secret (link tokens, CSRF).
 */

const VERSION = 'v1.';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_LABEL = 'veriform/sealed/v1';

export class SealedValueError extends Error {
  constructor() {
    super('The sealed value is malformed, was altered, or was sealed under another key or context.');
    this.name = 'SealedValueError';
  }
}

export type Sealer = {
  seal(plaintext: string, context: string): string;
  /** Throws SealedValueError when the value was altered, or sealed with another key or context. */
  open(sealed: string, context: string): string;
};

export function createSealer(secretKey: string): Sealer {
  const key = Buffer.from(hkdfSync('sha256', secretKey, Buffer.alloc(0), KEY_LABEL, 32));
  return {
    seal(plaintext, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return VERSION + Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url');
    },
    open(sealed, context) {
      if (!sealed.startsWith(VERSION)) throw new SealedValueError();
      const raw = Buffer.from(sealed.slice(VERSION.length), 'base64url');
      if (raw.length < IV_BYTES + TAG_BYTES) throw new SealedValueError();
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES), {
          authTagLength: TAG_BYTES,
        });
        decipher.setAAD(Buffer.from(context, 'utf8'));
        decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
        return Buffer.concat([
          decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)),
          decipher.final(),
        ]).toString('utf8');
      } catch {
        throw new SealedValueError();
      }
    },
  };
}
