import {
  createHash,
  createHmac,
  createSecretKey,
  type KeyObject,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';

/** A random value for ids and secrets: 256 bits, base64url. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function hmacSha256(key: string | Buffer | KeyObject, message: string): Buffer {
  return createHmac('sha256', key).update(message).digest();
}

/**
 * One sub-key per use of SECRET_KEY (CSRF tokens, signed links), so that a value signed for one purpose can never be
 * replayed as another.
 */
export function deriveKey(secretKey: string, purpose: string): Buffer {
  return hmacSha256(secretKey, `veriform.${purpose}`);
}

const derivedKeys = new Map<string, KeyObject>();

/**
 * deriveKey's sub-key, made once per secret and purpose, as a key object: the HMACs of every request (the CSRF token
 * of each unsafe call and page, a code's hash) then neither derive nor import their key each time (issue #20 item 3).
 */
export function derivedKey(secretKey: string, purpose: string): KeyObject {
  const id = `${purpose}\u0000${secretKey}`;
  let key = derivedKeys.get(id);
  if (!key) {
    // A process has one SECRET_KEY; tests make a few. Bounded all the same.
    if (derivedKeys.size >= 64) derivedKeys.clear();
    key = createSecretKey(deriveKey(secretKey, purpose));
    derivedKeys.set(id, key);
  }
  return key;
}

/** Constant-time comparison of two strings (different lengths compare unequal without leaking where). */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  if (left.length !== right.length) return false;
  return timingSafeEqual(left, right);
}
