import {
  type ApiProblemCode,
  errorTexts,
  MAIN_CODE_KEY,
  type MainCode,
  secondFactorTexts,
  type TeamMainCode,
} from '@veriform/contracts';

/** Every `MainCode_` the server answers: the shared ones and the team refusals (contracts teams.ts). */
export type AppErrorCode = MainCode | TeamMainCode;

/** HTTP status of each main code (SPEC §8): validation-like codes are 400, the rest speak for themselves. */
export const statusOfCode: Record<AppErrorCode, number> = {
  validation_error: 400,
  invalid_credentials: 400,
  email_taken: 400,
  invalid_token: 400,
  rate_limited: 429,
  not_authenticated: 401,
  permission_denied: 403,
  csrf_failed: 403,
  email_not_verified: 403,
  not_found: 404,
  conflict: 409,
  lookup_ceiling_reached: 429,
  lookup_failed: 503,
  mfa_setup_required: 403,
  step_up_required: 403,
  server_error: 500,
  last_owner: 400,
  invitation_missing: 400,
  invitation_not_found: 400,
  invitation_expired: 400,
  invitation_revoked: 400,
  invitation_accepted: 400,
  invitation_wrong_invitee: 400,
};

export type FieldErrors = Record<string, string[]>;

/** One validation problem: where (zod's path) and what. */
export type ValidationIssue = { path: readonly PropertyKey[]; message: string };

type AppErrorOptions = {
  /** For 401/403/404/429/5xx: the `{detail}` text. */
  detail?: string;
  /** For 400: messages per field; `nonFieldErrors` for the ones about the whole request. */
  fields?: FieldErrors;
  nonFieldErrors?: string[];
  headers?: Record<string, string>;
  /**
   * The stable code an API v1 caller gets in its problem+json (contracts api-v1.ts), where the app's code is too
   * coarse: `invalid_phone` rather than `validation_error`. The session API never shows it.
   */
  problem?: ApiProblemCode;
};

/**
 * The one error type services throw; the error handler turns it into the body of SPEC §8 / DESIGN §5:
 * 400 `{<field>: [msgs], nonFieldErrors: [msgs], MainCode_}`, every other status `{detail, MainCode_}`.
 */
export class AppError extends Error {
  readonly code: AppErrorCode;
  readonly statusCode: number;
  readonly detail: string;
  readonly fields: FieldErrors;
  readonly nonFieldErrors: string[];
  readonly headers: Record<string, string>;
  readonly problem: ApiProblemCode | undefined;

  constructor(code: AppErrorCode, options: AppErrorOptions = {}) {
    const detail = options.detail ?? options.nonFieldErrors?.[0] ?? defaultDetail(code);
    super(detail);
    this.name = 'AppError';
    this.code = code;
    this.statusCode = statusOfCode[code];
    this.detail = detail;
    this.fields = options.fields ?? {};
    this.nonFieldErrors = options.nonFieldErrors ?? [];
    this.headers = options.headers ?? {};
    this.problem = options.problem;
  }

  /** A 400 about one field. */
  static field(code: AppErrorCode, field: string, message: string): AppError {
    return new AppError(code, { fields: { [field]: [message] } });
  }

  /** A 400 about the request as a whole. */
  static nonField(code: AppErrorCode, message: string): AppError {
    return new AppError(code, { nonFieldErrors: [message] });
  }

  /**
   * The 400 of a failed validation, whoever validated (a route's schema through Fastify, or a service's own parse):
   * each issue under its dotted path (`items.0.name`); issues about the whole body, or whose path would collide with
   * the body's own keys, as non-field errors; each message once per field.
   */
  static fromIssues(issues: readonly ValidationIssue[]): AppError {
    const fields: FieldErrors = {};
    const nonFieldErrors: string[] = [];
    for (const issue of issues) {
      const field = issue.path.map(String).join('.');
      const aboutTheBody = !field || field === 'nonFieldErrors' || field === MAIN_CODE_KEY;
      if (!aboutTheBody) fields[field] ??= [];
      const list = (!aboutTheBody && fields[field]) || nonFieldErrors;
      if (!list.includes(issue.message)) list.push(issue.message);
    }
    return new AppError('validation_error', { fields, nonFieldErrors });
  }
}

function defaultDetail(code: AppErrorCode): string {
  switch (code) {
    case 'not_authenticated':
      return errorTexts.notAuthenticated;
    case 'permission_denied':
      return errorTexts.permissionDenied;
    case 'csrf_failed':
      return errorTexts.csrfFailed;
    case 'email_not_verified':
      return errorTexts.emailNotVerified;
    case 'not_found':
      return errorTexts.notFound;
    case 'server_error':
      return errorTexts.serverError;
    case 'mfa_setup_required':
      return secondFactorTexts.mfaSetupRequired;
    case 'step_up_required':
      return secondFactorTexts.stepUpRequired;
    default:
      return code;
  }
}
