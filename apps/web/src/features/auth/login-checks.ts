import {
  installSpecErrorMessages,
  type LoginRequest,
  loginRequestSchema,
  secondFactorTexts,
} from '@veriform/contracts';
import { ApiValidationError } from '../../lib/api-client';
import { errorDisplayText, type FieldLabels, otherErrorsHeading } from '../../lib/error-text';

/**
 * What the login form needs zod and the API client's error classes for, loaded when the form is first typed in or
 * submitted (components/LoginForm.tsx) so that the page shows without them.
 */

// The form's messages read like the server's (SPEC §5); installing twice is harmless.
installSpecErrorMessages();

export type FieldErrors = Partial<Record<keyof LoginRequest, string>>;

export type LoginCheck = { ok: true; values: LoginRequest } | { ok: false; errors: FieldErrors };

const FIELDS: readonly (keyof LoginRequest)[] = ['email', 'password'];

const isField = (name: string): name is keyof LoginRequest => (FIELDS as readonly string[]).includes(name);

/** The contract's own check, its first message per field (as Mantine's schema resolver showed them). */
export function checkLogin(values: LoginRequest): LoginCheck {
  const parsed = loginRequestSchema.safeParse(values);
  if (parsed.success) return { ok: true, values: parsed.data };
  const errors: FieldErrors = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? '');
    if (isField(field) && errors[field] === undefined) errors[field] = issue.message;
  }
  return { ok: false, errors };
}

/** The form error block (SPEC §8), as components/form/FormErrorAlert.tsx shows it in the rest of the app. */
export type LoginAlert =
  | { kind: 'text'; text: string }
  | {
      kind: 'details';
      fields: { label: string; message: string }[];
      others: string[];
      othersHeading: string;
    };

/** A failed login: the field errors shown beside their inputs, and the block for everything else. */
export function describeLoginError(
  error: unknown,
  labels: FieldLabels,
): { inline: FieldErrors; alert: LoginAlert | null } {
  if (!(error instanceof ApiValidationError)) {
    return { inline: {}, alert: { kind: 'text', text: errorDisplayText(error, labels) } };
  }
  const inline: FieldErrors = {};
  const fields: { label: string; message: string }[] = [];
  for (const [field, message] of Object.entries(error.fieldErrors)) {
    if (isField(field)) inline[field] = message;
    else fields.push({ label: labels[field] ?? field, message });
  }
  const others = [...error.nonFieldErrors];
  const alert: LoginAlert | null =
    fields.length === 0 && others.length === 0
      ? null
      : { kind: 'details', fields, others, othersHeading: otherErrorsHeading(others.length) };
  return { inline, alert };
}

// ---- The sign-in's second step (issue #38) -------------------------------------------------------------------------

export { checkCode } from '../../lib/second-factor-code';

/**
 * A failed second step: the code's own error (shown under the box), an expired sign-in (back to the first step with
 * the server's words), or anything else (the error block: a passkey that failed, too many tries).
 */
export function describeSecondFactorError(error: unknown): {
  message: string;
  field: boolean;
  expired: boolean;
} {
  if (error instanceof ApiValidationError) {
    const expired =
      error.mainCode === 'invalid_token' || error.nonFieldErrors.includes(secondFactorTexts.noPendingLogin);
    if (expired)
      return { message: error.nonFieldErrors[0] ?? secondFactorTexts.noPendingLogin, field: false, expired };
    const code = error.fieldErrors.code;
    if (code !== undefined) return { message: code, field: true, expired: false };
  }
  return { message: errorDisplayText(error), field: false, expired: false };
}
