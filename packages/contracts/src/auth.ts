import { z } from 'zod';
import { newPasswordSchema } from './password.ts';
import { userSchema } from './users.ts';

const requiredString = z.string({ error: 'Required' }).min(1, 'Required');
export const emailSchema = z
  .string({ error: 'Required' })
  .trim()
  .min(1, 'Required')
  .max(254, 'String must contain at most 254 character(s)')
  .pipe(z.email({ error: 'Invalid email' }));

export const csrfResponseSchema = z.object({ csrfToken: z.string() });
export type CsrfResponse = z.infer<typeof csrfResponseSchema>;

/** Every auth answer carries a fresh CSRF token and the user (SPEC §7). */
export const authResponseSchema = z.object({ csrfToken: z.string(), user: userSchema });
export type AuthResponse = z.infer<typeof authResponseSchema>;

export const loginRequestSchema = z.object({
  email: emailSchema,
  password: requiredString.max(256, 'String must contain at most 256 character(s)'),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

const nameSchema = z
  .string({ error: 'Required' })
  .trim()
  .min(1, 'Required')
  .max(150, 'String must contain at most 150 character(s)');

export const signupRequestSchema = z
  .object({
    email: emailSchema,
    firstName: nameSchema,
    lastName: nameSchema,
    password: newPasswordSchema,
    passwordConfirm: requiredString.max(256, 'String must contain at most 256 character(s)'),
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
  uidb64: z.string().min(1, 'Required').max(64),
  token: z.string().min(1, 'Required').max(256),
});
export type TokenConfirmRequest = z.infer<typeof tokenConfirmRequestSchema>;
