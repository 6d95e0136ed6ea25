import {
  API_V1_PREFIX,
  type ApiProblem,
  type ApiProblemCode,
  apiProblems,
  type MainCode,
  type TeamMainCode,
} from '@veriform/contracts';
import type { FastifyRequest } from 'fastify';
import type { AppError } from '../../lib/errors.ts';

/**
 * API v1 answers errors as RFC 9457 problem details (`application/problem+json`), with the stable `code` of contracts'
 * `apiProblems`. The one error handler (plugins/error-handler.ts) asks `isApiV1` and formats with these functions, so
 * the same AppError a service throws reads as the spec's `{detail}` in the app and as a problem here.
 */

export const PROBLEM_CONTENT_TYPE = 'application/problem+json; charset=utf-8';

export const isApiV1 = (request: FastifyRequest): boolean => request.url.startsWith(API_V1_PREFIX);

/** The docs page's entry for a code: the `type` of every problem (a URI a developer can open). */
export const problemTypeUri = (publicUrl: string, code: ApiProblemCode) =>
  `${publicUrl}/docs/api#error-${code}`;

/** An app code as an API v1 caller reads it, where the thrower named no `problem`. */
const problemOfAppCode: Partial<Record<MainCode | TeamMainCode, ApiProblemCode>> = {
  not_authenticated: 'unauthenticated',
  // A key is refused only for what its scopes lack; people's role checks never reach API v1.
  permission_denied: 'insufficient_scope',
  not_found: 'not_found',
  rate_limited: 'rate_limited',
  lookup_ceiling_reached: 'lookup_ceiling_reached',
  lookup_failed: 'lookup_failed',
  server_error: 'server_error',
};

/** `items.0.name` → `/items/0/name` (RFC 6901, escaping `~` and `/`); the whole request is ``. */
const pointerOf = (field: string) =>
  field === ''
    ? ''
    : `/${field
        .split('.')
        .map((part) => part.replaceAll('~', '~0').replaceAll('/', '~1'))
        .join('/')}`;

export function problemBody(
  publicUrl: string,
  code: ApiProblemCode,
  detail: string,
  errors?: ApiProblem['errors'],
): ApiProblem {
  const { status, title } = apiProblems[code];
  return {
    type: problemTypeUri(publicUrl, code),
    title,
    status,
    detail,
    code,
    ...(errors && errors.length > 0 ? { errors } : {}),
  };
}

export function problemOfAppError(publicUrl: string, error: AppError): ApiProblem {
  const code =
    error.problem ??
    problemOfAppCode[error.code] ??
    (error.statusCode === 400 ? 'invalid_request' : 'server_error');
  if (apiProblems[code].status !== 400) return problemBody(publicUrl, code, error.detail);
  const errors = [
    ...Object.entries(error.fields).flatMap(([field, messages]) =>
      messages.map((detail) => ({ pointer: pointerOf(field), detail })),
    ),
    ...error.nonFieldErrors.map((detail) => ({ pointer: '', detail })),
  ];
  const first = errors[0];
  const detail = first
    ? `${first.pointer ? `${first.pointer.slice(1)}: ` : ''}${first.detail}`
    : apiProblems[code].description;
  return problemBody(publicUrl, code, detail, errors);
}

/** Fastify's own client errors (body too large, wrong content type…), by status. */
export function problemOfStatus(publicUrl: string, status: number, message: string): ApiProblem {
  const code: ApiProblemCode =
    status === 413
      ? 'payload_too_large'
      : status === 415
        ? 'unsupported_media_type'
        : status === 404
          ? 'not_found'
          : status === 429
            ? 'rate_limited'
            : 'invalid_request';
  return problemBody(publicUrl, code, message);
}
