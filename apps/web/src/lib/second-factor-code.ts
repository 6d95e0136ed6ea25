import {
  recoveryCodeSchema,
  type SecondFactorProof,
  secondFactorTexts,
  totpCodeSchema,
} from '@veriform/contracts';

/**
 * One box for a code (issue #38): six digits are the authenticator app's code, anything else is read as a recovery
 * code; each is checked by the contract's own schema. Used by the step-up dialog and the sign-in's second step.
 */
export function codeProof(
  value: string,
): { proof: SecondFactorProof; error: null } | { proof: null; error: string } {
  const typed = value.trim();
  if (typed === '') return { proof: null, error: 'Enter a code.' };
  const totp = totpCodeSchema.safeParse(typed);
  if (totp.success) return { proof: { method: 'totp', code: totp.data }, error: null };
  if (/^[\d\s]+$/.test(typed))
    return { proof: null, error: totp.error.issues[0]?.message ?? secondFactorTexts.wrongCode };
  const recovery = recoveryCodeSchema.safeParse(typed);
  if (recovery.success) return { proof: { method: 'recovery_code', code: recovery.data }, error: null };
  return { proof: null, error: recovery.error.issues[0]?.message ?? secondFactorTexts.wrongCode };
}

/** A code of one kind only (the sign-in's step asks for the app's code or a recovery code, each in its own box). */
export function checkCode(
  method: 'totp' | 'recovery_code',
  value: string,
): { proof: SecondFactorProof; error: null } | { proof: null; error: string } {
  const schema = method === 'totp' ? totpCodeSchema : recoveryCodeSchema;
  const parsed = schema.safeParse(value);
  if (parsed.success) return { proof: { method, code: parsed.data }, error: null };
  return { proof: null, error: parsed.error.issues[0]?.message ?? secondFactorTexts.wrongCode };
}
