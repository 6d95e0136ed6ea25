import {
  type ApiProblem,
  type DetailErrorBody,
  errorTexts,
  MAIN_CODE_KEY,
  type MainCode,
  serverTexts,
  type ValidationErrorBody,
} from '@veriform/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { reportError } from '../lib/error-reporting.ts';
import { AppError, type AppErrorCode, type FieldErrors } from '../lib/errors.ts';

/**
 * The one error handler (SPEC §8, DESIGN §5): 400 `{<field>: [msgs], nonFieldErrors: [msgs], MainCode_}`, every
 * other status `{detail, MainCode_}`. 5xx never say what went wrong inside; the log does.
 */

/**
 * A part of the app that answers its errors in a format of its own: API v1's RFC 9457 problem details
 * (modules/api-v1/problems.ts). app.ts passes it in, so this plugin, below the modules, names none of them (ADR 0036).
 */
export type ProblemFormat = {
  /** Whether the request is answered in this format. */
  applies: (request: FastifyRequest) => boolean;
  contentType: string;
  ofAppError: (publicUrl: string, error: AppError) => ApiProblem;
  /** Fastify's own client errors (4xx) by status. */
  ofStatus: (publicUrl: string, status: number, message: string) => ApiProblem;
};

/** Without a problem format (a test's small app), every request is answered in the spec's format. */
const noProblemFormat: ProblemFormat = {
  applies: () => false,
  contentType: '',
  ofAppError: () => {
    throw new Error('no problem format');
  },
  ofStatus: () => {
    throw new Error('no problem format');
  },
};

const MALFORMED_BODY_CODES = new Set(['FST_ERR_CTP_INVALID_JSON_BODY', 'FST_ERR_CTP_EMPTY_JSON_BODY']);

const codeOfStatus: Partial<Record<number, MainCode>> = {
  400: 'validation_error',
  401: 'not_authenticated',
  403: 'permission_denied',
  404: 'not_found',
  429: 'rate_limited',
};

function validationBody(
  code: AppErrorCode,
  fields: FieldErrors,
  nonFieldErrors: string[],
): ValidationErrorBody {
  const body: ValidationErrorBody = { ...fields };
  if (nonFieldErrors.length > 0) body.nonFieldErrors = nonFieldErrors;
  body[MAIN_CODE_KEY] = code;
  return body;
}

/** Fastify's validation errors (from the routes' zod schemas) as the issues AppError.fromIssues reads. */
function fromValidation(issues: NonNullable<FastifyError['validation']>): AppError {
  return AppError.fromIssues(
    issues.map((issue) => ({
      path: issue.instancePath.split('/').filter(Boolean),
      message: issue.message ?? 'Invalid value',
    })),
  );
}

function sendAppError(
  problems: ProblemFormat,
  request: FastifyRequest,
  reply: FastifyReply,
  error: AppError,
) {
  reply.headers(error.headers).code(error.statusCode);
  if (problems.applies(request))
    return sendProblem(problems, reply, problems.ofAppError(publicUrlOf(request), error));
  if (error.statusCode === 400) {
    return reply.send(validationBody(error.code, error.fields, error.nonFieldErrors));
  }
  const body: DetailErrorBody = { detail: error.detail, [MAIN_CODE_KEY]: error.code };
  return reply.send(body);
}

const publicUrlOf = (request: FastifyRequest) => request.server.services.config.publicUrl;

/** API v1's errors: RFC 9457 problem details (modules/api-v1/problems.ts), serialized here whatever the route's schemas. */
function sendProblem(problems: ProblemFormat, reply: FastifyReply, problem: ApiProblem) {
  return reply.code(problem.status).type(problems.contentType).send(JSON.stringify(problem));
}

/** What ties a reported error to the request's log lines; the route pattern, never the path (it may hold a token). */
function requestContext(request: FastifyRequest) {
  return { requestId: request.id, method: request.method, route: request.routeOptions.url };
}

export function registerErrorHandler(app: FastifyInstance, problems: ProblemFormat = noProblemFormat): void {
  const sendError = (request: FastifyRequest, reply: FastifyReply, error: AppError) =>
    sendAppError(problems, request, reply, error);
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) return sendError(request, reply, error);
    if (error.validation) return sendError(request, reply, fromValidation(error.validation));
    if (error.code && MALFORMED_BODY_CODES.has(error.code)) {
      if (problems.applies(request))
        return sendError(request, reply, AppError.nonField('validation_error', serverTexts.malformedJson));
      return reply.code(400).send(validationBody('validation_error', {}, [serverTexts.malformedJson]));
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500 && problems.applies(request)) {
      return sendProblem(problems, reply, problems.ofStatus(publicUrlOf(request), status, error.message));
    }
    if (status === 400) {
      return reply.code(400).send(validationBody('validation_error', {}, [error.message]));
    }
    if (status > 400 && status < 500) {
      // Fastify's own client errors (body too large, unsupported media type…) carry plain, safe messages.
      const code = codeOfStatus[status];
      const body: DetailErrorBody = { detail: error.message };
      if (code) body[MAIN_CODE_KEY] = code;
      return reply.code(status).send(body);
    }
    request.log.error({ err: error }, 'request failed');
    reportError(error, requestContext(request));
    if (problems.applies(request)) return sendError(request, reply, new AppError('server_error'));
    const body: DetailErrorBody = { detail: errorTexts.serverError, [MAIN_CODE_KEY]: 'server_error' };
    return reply.code(500).send(body);
  });
}

/** Raised by Fastify's router before any route runs; by default Fastify answers them in its own format. */
const UNROUTABLE_PATH_CODES = new Set(['FST_ERR_BAD_URL', 'FST_ERR_MAX_PARAM_LENGTH']);

/**
 * Fastify's `frameworkErrors` option: a path with broken percent-encoding (`/api/users/%ZZ`) or a path parameter over
 * `maxParamLength` is answered by the router itself, as `{error, code: 'FST_ERR_…', message: '<the path>'}`,
 * bypassing the error handler. No such path names anything: 404 in the spec's format, like any unknown id.
 */
export function answerFrameworkError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  // No hook runs for these (helmet's included): a JSON error needs nothing, so the strictest policy of all.
  reply.headers({
    'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'same-origin',
  });
  if (UNROUTABLE_PATH_CODES.has(error.code)) {
    const body: DetailErrorBody = { detail: errorTexts.notFound, [MAIN_CODE_KEY]: 'not_found' };
    reply.code(404).send(body);
    return;
  }
  request.log.error({ err: error }, 'request failed before routing');
  reportError(error, { requestId: request.id, method: request.method });
  const body: DetailErrorBody = { detail: errorTexts.serverError, [MAIN_CODE_KEY]: 'server_error' };
  reply.code(500).send(body);
}
