import { z } from 'zod';

/** SPEC §5: the new-password rules, shared by the server check and the live checklist. */
export const PASSWORD_MIN_LENGTH = 9;
export const PASSWORD_TOO_SHORT = 'Passwords must be at least 9 characters long.';
export const PASSWORD_NOT_MET = 'Password does not meet requirements';

export const passwordRules = [
  { id: 'length', label: 'At least 9 characters long', test: (v: string) => v.length >= PASSWORD_MIN_LENGTH },
  { id: 'number', label: 'At least 1 number', test: (v: string) => /\d/.test(v) },
  {
    id: 'special',
    label: 'At least 1 special character, !@#$&*%?',
    // "special" means any non-alphanumeric character (SPEC §5); the label lists common examples.
    test: (v: string) => /[^\p{L}\p{N}]/u.test(v),
  },
] as const;

export type PasswordRuleId = (typeof passwordRules)[number]['id'];

/** A new password: too short gets the length message, anything else missing gets the generic one. */
export const newPasswordSchema = z
  .string()
  .min(1)
  .max(256)
  .superRefine((value, ctx) => {
    if (value.length < PASSWORD_MIN_LENGTH) {
      ctx.addIssue({ code: 'custom', message: PASSWORD_TOO_SHORT });
      return;
    }
    if (!passwordRules.every((rule) => rule.test(value))) {
      ctx.addIssue({ code: 'custom', message: PASSWORD_NOT_MET });
    }
  });
