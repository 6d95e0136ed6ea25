import type { TokenLinkKind } from '@veriform/contracts';
import type { Clock } from './clock.ts';
import { deriveKey, hmacSha256, safeEqual } from './crypto.ts';

/**
 * Stateless signed tokens for links in e-mails (verify e-mail, reset password, change e-mail; lib/signed-links.ts
 * builds and checks the links), in the manner of Django's PasswordResetTokenGenerator: `<timestamp base36>-<HMAC>`
 * where the HMAC covers the purpose, the user id, the timestamp and a `state` — values that change once the link has
 * been used (e.g. the verified-as-of date, the password hash). Nothing is stored, and a used link stops working
 * because its state no longer matches.
 */

/** A token is signed for one link page (contracts' tokenLinkPages): it works on no other. */
export type TokenPurpose = TokenLinkKind;

/** Bytes of HMAC kept in the token: 128 bits is far beyond guessing and keeps links short. */
const SIGNATURE_BYTES = 16;
/** Tolerated clock skew between processes for tokens that look minted in the future. */
const FUTURE_SKEW_SECONDS = 60;

export function encodeUid(userId: number): string {
  return Buffer.from(String(userId)).toString('base64url');
}

export function decodeUid(uidb64: string): number | null {
  if (!/^[A-Za-z0-9_-]+$/.test(uidb64)) return null;
  const decoded = Buffer.from(uidb64, 'base64url').toString('utf8');
  if (!/^[1-9]\d{0,9}$/.test(decoded)) return null;
  const id = Number(decoded);
  return id <= 2_147_483_647 ? id : null;
}

export function createTokenSigner(secretKey: string, clock: Clock) {
  const key = deriveKey(secretKey, 'signed-links');

  function signature(
    purpose: TokenPurpose,
    userId: number,
    state: readonly string[],
    timestamp: string,
  ): string {
    // JSON keeps the fields unambiguous whatever characters they hold.
    const message = JSON.stringify([purpose, userId, ...state, timestamp]);
    return hmacSha256(key, message).subarray(0, SIGNATURE_BYTES).toString('base64url');
  }

  function make(purpose: TokenPurpose, userId: number, state: readonly string[]): string {
    const timestamp = Math.floor(clock.now().getTime() / 1000).toString(36);
    return `${timestamp}-${signature(purpose, userId, state, timestamp)}`;
  }

  function check(
    purpose: TokenPurpose,
    userId: number,
    state: readonly string[],
    token: string,
    maxAgeSeconds: number,
  ): boolean {
    const match = /^([0-9a-z]{1,10})-([A-Za-z0-9_-]{1,64})$/.exec(token);
    if (!match?.[1] || !match[2]) return false;
    const timestamp = match[1];
    if (!safeEqual(match[2], signature(purpose, userId, state, timestamp))) return false;
    const age = clock.now().getTime() / 1000 - Number.parseInt(timestamp, 36);
    return age <= maxAgeSeconds && age >= -FUTURE_SKEW_SECONDS;
  }

  return { make, check };
}

export type TokenSigner = ReturnType<typeof createTokenSigner>;
