import { z } from 'zod';
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
