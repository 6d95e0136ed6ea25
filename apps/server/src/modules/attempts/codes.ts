import { randomBytes, randomInt } from 'node:crypto';
import { CODE_LENGTH } from '@veriform/contracts';
import { derivedKey, hmacSha256, safeEqual } from '../../lib/crypto.ts';

/**
 * One-time codes of the public verification (DESIGN §5). A code is never stored: only an HMAC keyed from SECRET_KEY
 * and bound to its attempt id, so a leaked table reveals no code and a hash cannot be moved to another attempt.
 */

/** 16 random bytes (128 bits), base64url: 22 characters, unguessable, so the id itself is no way in. */
export const newAttemptId = (): string => randomBytes(16).toString('base64url');
export { ATTEMPT_ID_PATTERN } from '../../domain/api-verification.ts';

/** A page view (issue #18): `pv_` + 128 random bits, like consent versions' `cv_` ids. */
export const newPageViewId = (): string => `pv_${randomBytes(16).toString('base64url')}`;

/** Six uniformly random digits (crypto.randomInt: no modulo bias). */
export function newCode(): string {
  return String(randomInt(0, 10 ** CODE_LENGTH)).padStart(CODE_LENGTH, '0');
}

export const CODE_PATTERN = new RegExp(`^\\d{${CODE_LENGTH}}$`);

export function hashCode(secretKey: string, attemptId: string, code: string): string {
  return hmacSha256(derivedKey(secretKey, 'verification-code'), `${attemptId}:${code}`).toString('base64url');
}

/** Timing-safe: how much of a guess matched never shows in the answer time. */
export function codeMatches(secretKey: string, attemptId: string, code: string, storedHash: string): boolean {
  return safeEqual(hashCode(secretKey, attemptId, code), storedHash);
}
