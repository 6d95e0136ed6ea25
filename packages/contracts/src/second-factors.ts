import { z } from 'zod';
import { authResponseSchema } from './auth.ts';
import { anyIdParams, created, endpoint, noContent, ok } from './endpoints.ts';
import { singleLineName } from './names.ts';

// The sign-in's first answer for a person with a second factor (`mfaRequiredResponseSchema`, its methods
// `secondFactorMethods`) is auth.ts's: the login's contract names it, and auth.ts cannot import this file.

/**
 * Second factors for members (issue #38): TOTP (RFC 6238) with one-time recovery codes, and passkeys (WebAuthn). A
 * person with a second factor signs in in two steps; sensitive calls ask for a fresh proof (step-up); owners may
 * require a second factor of every member. docs/decisions/0048-second-factors.md says what was chosen and why.
 *
 * Routes: `secondFactorEndpoints` (TOTP, recovery codes, the sign-in's second step, step-up) and `passkeyEndpoints`.
 */

/** A step-up proof lasts this long (issue #38 item 2). */
export const STEP_UP_MAX_AGE_MS = 10 * 60 * 1000;
/** Recovery codes made at each TOTP confirmation (and each regeneration). */
export const RECOVERY_CODE_COUNT = 10;
/** A sign-in waiting for its second factor expires after this long. */
export const MFA_LOGIN_TTL_MS = 5 * 60 * 1000;
/** Passkeys one person may hold. */
export const MAX_PASSKEYS_PER_USER = 20;

/** Six digits; spaces a person types between groups are ignored. */
export const totpCodeSchema = z
  .string()
  .max(32)
  .transform((v) => v.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app.'));

/** `xxxxx-xxxxx` (lower-case letters and digits); case and a missing hyphen are forgiven. */
export const recoveryCodeSchema = z
  .string()
  .max(64)
  .transform((v) =>
    v
      .trim()
      .toLowerCase()
      .replace(/[\s-]+/g, ''),
  )
  .pipe(z.string().regex(/^[a-z0-9]{10}$/, 'Enter one of your recovery codes, such as abcde-12345.'));

const base64url = z
  .string()
  .max(16_384)
  .regex(/^[A-Za-z0-9_-]*$/, 'Expected base64url.');

/**
 * A WebAuthn ceremony's answer as the browser's JSON (`RegistrationResponseJSON`, `AuthenticationResponseJSON`):
 * checked for shape and size here, for meaning by the server's WebAuthn library.
 */
export const webauthnResponseSchema = z.object({
  id: base64url.max(1024),
  rawId: base64url.max(1024),
  type: z.literal('public-key'),
  response: z
    .object({
      clientDataJSON: base64url,
      attestationObject: base64url.optional(),
      authenticatorData: base64url.optional(),
      signature: base64url.optional(),
      userHandle: base64url.optional(),
      transports: z.array(z.string().max(32)).max(10).optional(),
      publicKey: base64url.optional(),
      publicKeyAlgorithm: z.number().int().optional(),
    })
    .strip(),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
});
export type WebauthnResponse = z.infer<typeof webauthnResponseSchema>;

/** WebAuthn options for the browser (`PublicKeyCredentialCreationOptionsJSON` / `…RequestOptionsJSON`), as made. */
export const webauthnOptionsSchema = z.looseObject({ challenge: z.string() });
export type WebauthnOptions = z.infer<typeof webauthnOptionsSchema>;

/** A second factor's proof: a TOTP code, a recovery code, or a passkey's assertion. */
export const secondFactorProofSchema = z.discriminatedUnion('method', [
  z.object({ method: z.literal('totp'), code: totpCodeSchema }),
  z.object({ method: z.literal('recovery_code'), code: recoveryCodeSchema }),
  z.object({ method: z.literal('passkey'), response: webauthnResponseSchema }),
]);
export type SecondFactorProof = z.input<typeof secondFactorProofSchema>;

/** The TOTP enrolment's start: the secret (base32) and the `otpauth://` URL the QR code shows. */
export const totpSetupResponseSchema = z.object({ secret: z.string(), otpauthUrl: z.string() });
export type TotpSetupResponse = z.infer<typeof totpSetupResponseSchema>;

export const totpConfirmRequestSchema = z.object({ code: totpCodeSchema });
export const recoveryCodesResponseSchema = z.object({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodesResponse = z.infer<typeof recoveryCodesResponseSchema>;

/** The person's second factors, for My Account › Security. */
export const secondFactorsSchema = z.object({
  totp: z.object({ enabled: z.boolean(), confirmedAt: z.string().nullable() }),
  recoveryCodesLeft: z.number().int(),
  passkeys: z.number().int(),
  /** When this session last proved a second factor (ISO), or null. */
  lastProofAt: z.string().nullable(),
});
export type SecondFactors = z.infer<typeof secondFactorsSchema>;

export const passkeySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  deviceType: z.string(),
  backedUp: z.boolean(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type Passkey = z.infer<typeof passkeySchema>;

export const passkeyNameSchema = singleLineName(100);
export const addPasskeyRequestSchema = z.object({
  response: webauthnResponseSchema,
  name: passkeyNameSchema,
});
export const passkeyLoginRequestSchema = z.object({ response: webauthnResponseSchema });
export const stepUpResponseSchema = z.object({ lastProofAt: z.string() });

export const secondFactorTexts = {
  stepUpRequired:
    'Confirm it is you: enter a code from your authenticator app, a recovery code, or use a passkey.',
  mfaSetupRequired:
    'This account requires a second factor. Set up an authenticator app or a passkey to continue.',
  wrongCode: 'That code is not right, or it was already used. Try the next one.',
  noPendingLogin: 'Your sign-in has expired. Sign in again.',
  totpAlreadyEnabled: 'An authenticator app is already set up. Remove it first to set up another.',
  noTotpToConfirm: 'Start setting up the authenticator app first.',
  passkeyFailed: 'The passkey could not be checked. Try again, or use another way to sign in.',
  tooManyPasskeys: `You can have at most ${MAX_PASSKEYS_PER_USER} passkeys. Remove one first.`,
} as const;

/**
 * Signed-in person's own second factors (access `signedIn`). Removals AND enrolments ask a fresh proof (`stepUp`): a
 * new factor's confirmation counts as a proof, so without it a stolen session could enrol its own authenticator and
 * prove with it whatever step-up asks. A person with no factor yet is never asked (the first enrolment is open).
 */
export const secondFactorEndpoints = {
  /** What the person has enrolled. */
  status: endpoint('GET /api/auth/mfa', { response: ok(secondFactorsSchema), access: 'signedIn' }),
  /** Starts (or restarts) a TOTP enrolment: a new unconfirmed secret. 400 when one is already confirmed. */
  startTotp: endpoint('POST /api/auth/mfa/totp', {
    response: ok(totpSetupResponseSchema),
    access: 'signedIn',
    stepUp: true,
  }),
  /** The first code proves the app has the secret: the factor is on, 10 recovery codes are answered once. */
  confirmTotp: endpoint('POST /api/auth/mfa/totp/confirm', {
    body: totpConfirmRequestSchema,
    response: ok(recoveryCodesResponseSchema),
    access: 'signedIn',
    stepUp: true,
  }),
  removeTotp: endpoint('DELETE /api/auth/mfa/totp', {
    response: noContent,
    access: 'signedIn',
    stepUp: true,
  }),
  /** New recovery codes; the old ones stop working. */
  regenerateRecoveryCodes: endpoint('POST /api/auth/mfa/recovery-codes', {
    response: ok(recoveryCodesResponseSchema),
    access: 'signedIn',
    stepUp: true,
  }),
  /** The sign-in's second step (the pending sign-in is the httpOnly cookie the first step set). */
  loginMfa: endpoint('POST /api/auth/login/mfa', {
    body: secondFactorProofSchema,
    response: ok(authResponseSchema),
    access: 'public',
  }),
  /** Renews the session's proof for 10 minutes. */
  stepUp: endpoint('POST /api/auth/step-up', {
    body: secondFactorProofSchema,
    response: ok(stepUpResponseSchema),
    access: 'signedIn',
  }),
};

export const passkeyEndpoints = {
  // Adding a passkey when the person already has a factor asks a fresh proof, as a TOTP enrolment does (above).
  registrationOptions: endpoint('POST /api/auth/passkeys/registration-options', {
    response: ok(webauthnOptionsSchema),
    access: 'signedIn',
    stepUp: true,
  }),
  add: endpoint('POST /api/auth/passkeys', {
    body: addPasskeyRequestSchema,
    response: created(passkeySchema),
    access: 'signedIn',
    stepUp: true,
  }),
  list: endpoint('GET /api/auth/passkeys', { response: ok(z.array(passkeySchema)), access: 'signedIn' }),
  remove: endpoint('DELETE /api/auth/passkeys/:id', {
    params: anyIdParams,
    response: noContent,
    access: 'signedIn',
    stepUp: true,
  }),
  /** For a sign-in without a password (discoverable credentials) or a second step: a one-use challenge. */
  authenticationOptions: endpoint('POST /api/auth/passkeys/authentication-options', {
    response: ok(webauthnOptionsSchema),
    access: 'public',
  }),
  login: endpoint('POST /api/auth/login/passkey', {
    body: passkeyLoginRequestSchema,
    response: ok(authResponseSchema),
    access: 'public',
  }),
};
