import { Secret, TOTP } from 'otpauth';

/**
 * TOTP (RFC 6238) as every authenticator app reads it: HMAC-SHA-1, 6 digits, a 30-second step (ADR 48). A code of
 * the step before or after the server's is accepted too (clocks drift, people type slowly); the step it matched is
 * answered so that it can be used once (user_totp.last_used_step).
 */
export const TOTP_PARAMETERS = { algorithm: 'SHA1', digits: 6, period: 30 } as const;
/** Steps either side of now that are accepted. */
export const TOTP_WINDOW = 1;
/** 160 bits, the HMAC-SHA-1 key size RFC 4226 §4 recommends. */
const SECRET_BYTES = 20;
const ISSUER = 'Veriform';

/** A new random secret (base32, as the app and the QR code take it). */
export function newTotpSecret(): string {
  return new Secret({ size: SECRET_BYTES }).base32;
}

/** The `otpauth://totp/Veriform:<address>?secret=…` URL the QR code shows. */
export function otpauthUrl(secretBase32: string, label: string): string {
  return new TOTP({
    issuer: ISSUER,
    label,
    secret: Secret.fromBase32(secretBase32),
    ...TOTP_PARAMETERS,
  }).toString();
}

/** The time step of `at` (30-second periods since the epoch). */
export function totpStep(at: Date): number {
  return Math.floor(at.getTime() / 1000 / TOTP_PARAMETERS.period);
}

/** The code of a step (tests, and nothing else, make codes). */
export function totpCode(secretBase32: string, step: number): string {
  return TOTP.generate({
    secret: Secret.fromBase32(secretBase32),
    ...TOTP_PARAMETERS,
    timestamp: step * TOTP_PARAMETERS.period * 1000,
  });
}

/** The step the code matches within the window around `now`, or null when it matches none. */
export function matchingStep(secretBase32: string, code: string, now: Date): number | null {
  const delta = TOTP.validate({
    token: code,
    secret: Secret.fromBase32(secretBase32),
    ...TOTP_PARAMETERS,
    timestamp: now.getTime(),
    window: TOTP_WINDOW,
  });
  return delta === null ? null : totpStep(now) + delta;
}
