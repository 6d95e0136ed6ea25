import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A random value for ids and secrets: 256 bits, base64url. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function hmacSha256(key: string | Buffer, message: string): Buffer {
  return createHmac('sha256', key).update(message).digest();
}

/**
 * One sub-key per use of SECRET_KEY (CSRF tokens, signed links), so that a value signed for one purpose can never be
 * replayed as another.
 */
export function deriveKey(secretKey: string, purpose: string): Buffer {
  return hmacSha256(secretKey, `veriform.${purpose}`);
}

/** Constant-time comparison of two strings (different lengths compare unequal without leaking where). */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  if (left.length !== right.length) return false;
  return timingSafeEqual(left, right);
}
