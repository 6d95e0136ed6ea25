import { z } from 'zod';
import { endpoint, ok } from './endpoints.ts';
import { membershipSchema } from './memberships.ts';
import { singleLineName } from './names.ts';
import { newPasswordSchema } from './password.ts';
import { userSchema } from './users.ts';

const requiredString = z.string().min(1);
export const emailSchema = z.string().trim().min(1).max(254).pipe(z.email());

export const csrfResponseSchema = z.object({ csrfToken: z.string() });
export type CsrfResponse = z.infer<typeof csrfResponseSchema>;

/**
 * Every auth answer carries a fresh CSRF token and the user (SPEC §7); it also carries the memberships so that the
 * client can reset the current membership from server data after login, logout or a password change (SPEC §4).
 */
export const authResponseSchema = z.object({
  csrfToken: z.string(),
  user: userSchema,
  memberships: z.array(membershipSchema),
  currentMembership: membershipSchema.nullable(),
});
export type AuthResponse = z.infer<typeof authResponseSchema>;

/** A second factor (issue #38): a TOTP code, a one-time recovery code, a passkey (second-factors.ts). */
export const secondFactorMethods = ['totp', 'passkey', 'recovery_code'] as const;
export const secondFactorMethodSchema = z.enum(secondFactorMethods);
export type SecondFactorMethod = z.infer<typeof secondFactorMethodSchema>;

/**
 * `POST /api/auth/login` when the person has a second factor (issue #38): the password was right, but no session yet;
 * the pending sign-in is an httpOnly cookie and `POST /api/auth/login/mfa` finishes it with one of `methods` (what the
 * person has: `recovery_code` only while codes are left).
 */
export const mfaRequiredResponseSchema = z.object({
  mfaRequired: z.literal(true),
  methods: z.array(secondFactorMethodSchema),
});
export type MfaRequiredResponse = z.infer<typeof mfaRequiredResponseSchema>;

/** The sign-in's answer: signed in, or a second factor is asked first. */
export const loginResponseSchema = z.union([authResponseSchema, mfaRequiredResponseSchema]);
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const loginRequestSchema = z.object({
  email: emailSchema,
  password: requiredString.max(256),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

const nameSchema = singleLineName(150);

export const signupRequestSchema = z
  .object({
    email: emailSchema,
    firstName: nameSchema,
    lastName: nameSchema,
    password: newPasswordSchema,
    passwordConfirm: requiredString.max(256),
  })
  .refine((v) => v.password === v.passwordConfirm, {
    path: ['passwordConfirm'],
    message: 'The two passwords do not match.',
  });
export type SignupRequest = z.infer<typeof signupRequestSchema>;

export const resendVerificationEmailRequestSchema = z.object({ email: emailSchema });
export type ResendVerificationEmailRequest = z.infer<typeof resendVerificationEmailRequestSchema>;

/** The same answer whether or not the address exists (no account enumeration). */
export const detailResponseSchema = z.object({ detail: z.string() });
export type DetailResponse = z.infer<typeof detailResponseSchema>;

export const tokenConfirmRequestSchema = z.object({
  uidb64: z.string().min(1).max(64),
  token: z.string().min(1).max(256),
});
export type TokenConfirmRequest = z.infer<typeof tokenConfirmRequestSchema>;

/**
 * The session API's sign-in, sign-up and e-mail verification routes (SPEC §7, DESIGN §5): anyone may call them (an
 * anonymous caller gets the anonymous viewer back). The password and e-mail changes are account-self-service.ts's.
 */
export const authEndpoints = {
  /** A CSRF token for the session (made when there is none); needs no token itself. */
  csrf: endpoint('POST /api/auth/csrf', { response: ok(csrfResponseSchema), access: 'public' }),
  /** A read with a POST (it rotates the CSRF token): who is signed in, with their memberships. */
  refreshMe: endpoint('POST /api/auth/refresh-me', { response: ok(authResponseSchema), access: 'public' }),
  /**
   * Signs in with e-mail and password: a new session and a new CSRF token; for a person with a second factor,
   * `{mfaRequired: true, methods}` and no session until `POST /api/auth/login/mfa` (second-factors.ts).
   */
  login: endpoint('POST /api/auth/login', {
    body: loginRequestSchema,
    response: ok(loginResponseSchema),
    access: 'public',
  }),
  /** Ends the session, if any; the answer is the anonymous viewer with a new CSRF token. */
  logout: endpoint('POST /api/auth/logout', { response: ok(authResponseSchema), access: 'public' }),
  /** Creates the user and signs them in (unverified until the e-mailed link is opened). */
  signup: endpoint('POST /api/auth/signup', {
    body: signupRequestSchema,
    response: ok(authResponseSchema),
    access: 'public',
  }),
  /** The same answer whether or not the address exists. */
  resendVerificationEmail: endpoint('POST /api/auth/signup/resend-verification-email', {
    body: resendVerificationEmailRequestSchema,
    response: ok(detailResponseSchema),
    access: 'public',
  }),
  /** The e-mailed link: 400 with MainCode_ invalid_token when it is bad; signs nobody in. */
  confirmVerifyEmail: endpoint('POST /api/auth/verify-email/confirm', {
    body: tokenConfirmRequestSchema,
    response: ok(authResponseSchema),
    access: 'public',
  }),
};
