import { z } from 'zod';

/**
 * Error bodies (SPEC §3, §8; DESIGN §5).
 * 400: `{ <field>: [msg], nonFieldErrors: [msg], MainCode_: code }`; other errors: `{ detail }`.
 */
export const MAIN_CODE_KEY = 'MainCode_';

export const mainCodes = [
  'validation_error',
  'invalid_credentials',
  'email_taken',
  'invalid_token',
  'rate_limited',
  'not_authenticated',
  'permission_denied',
  'csrf_failed',
  'not_found',
  'server_error',
  'email_not_verified',
  /** 409: the object is not in the state the action needs (a second acknowledgment); nothing changed. */
  'conflict',
  /** 429: the account's monthly ceiling of carrier lookups of that kind is reached; nothing was asked (issue #36). */
  'lookup_ceiling_reached',
  /** 503: the carrier lookup provider gave no answer (a timeout, its error); nothing recorded, retry (issue #36). */
  'lookup_failed',
  /** 403: the account requires a second factor and the person has none; only enrolment is open (issue #38). */
  'mfa_setup_required',
  /** 403: a sensitive call needs a fresh proof of the second factor (`POST /api/auth/step-up`, issue #38). */
  'step_up_required',
] as const;
export type MainCode = (typeof mainCodes)[number];

export const validationErrorBodySchema = z
  .object({
    nonFieldErrors: z.array(z.string()).optional(),
    [MAIN_CODE_KEY]: z.string().optional(),
  })
  .catchall(z.union([z.array(z.string()), z.string()]));
export type ValidationErrorBody = z.infer<typeof validationErrorBodySchema>;

export const detailErrorBodySchema = z.object({
  detail: z.string(),
  [MAIN_CODE_KEY]: z.string().optional(),
});
export type DetailErrorBody = z.infer<typeof detailErrorBodySchema>;

/** Texts the client and the server must agree on exactly (SPEC §6, §8). */
export const errorTexts = {
  notAuthenticated: 'Authentication credentials were not provided.',
  csrfFailed: 'CSRF Failed: CSRF token missing or incorrect.',
  permissionDenied: 'You are not permitted to perform that action.',
  notFound: 'Not found.',
  serverError:
    'An unexpected server error occurred. Please try again. If the issue continues please contact support.',
  invalidCredentials: 'Unable to log in with the provided e-mail and password.',
  emailTaken: 'A user with that e-mail address already exists.',
  passwordsDontMatch: 'The two passwords do not match.',
  invalidToken: 'This link is invalid or has expired.',
  noMembership: 'No membership found',
  /** 403 on every account action (and creating an account) while the login's address is not verified (SPEC §4 gate). */
  emailNotVerified: 'Verify your e-mail address first.',
} as const;

export const unexpectedStatusText = (status: number) => `Unexpected ${status} response from server.`;
