import type { FieldError, Problem, ProblemCode } from './types.ts';

/**
 * An error answer of API v1, thrown by every SDK call: the RFC 9457 problem the server sent (`type`, `title`,
 * `status`, `detail`, `code`, `errors`) and the `X-Request-Id` to quote to support. Match on `code`: it never changes
 * meaning. An answer that is not a problem (a proxy's HTML page) keeps its status, with `code` and `problem` null.
 */
export class VeriformError extends Error {
  override readonly name = 'VeriformError';
  readonly status: number;
  readonly code: ProblemCode | null;
  /** A URI of the docs' error table (`…/docs/api#error-<code>`); `about:blank` without a problem. */
  readonly type: string;
  readonly title: string;
  readonly detail: string;
  /** Each invalid field, as a JSON Pointer into the request (`/to`, `/limit`, `/headers/idempotency-key`). */
  readonly errors: FieldError[];
  readonly requestId: string | null;
  /** Seconds the server asked to wait (`Retry-After`), on a 429 or 503. */
  readonly retryAfterSeconds: number | null;
  readonly problem: Problem | null;

  constructor(status: number, problem: Problem | null, headers: Headers, fallbackDetail = '') {
    const detail = problem?.detail ?? fallbackDetail;
    super(`${status}${problem ? ` ${problem.code}` : ''}: ${detail || 'request failed'}`);
    this.status = status;
    this.problem = problem;
    this.code = problem?.code ?? null;
    this.type = problem?.type ?? 'about:blank';
    this.title = problem?.title ?? `HTTP ${status}`;
    this.detail = detail;
    this.errors = problem?.errors ?? [];
    this.requestId = headers.get('x-request-id');
    this.retryAfterSeconds = retryAfterSecondsOf(headers, Date.now());
  }

  /** The error of a response that is not 2xx; `body` as openapi-fetch parsed it (JSON, else the text). */
  static of(response: Response, body: unknown): VeriformError {
    const problem = isProblem(body) ? body : null;
    const fallback = typeof body === 'string' ? body.slice(0, 200) : response.statusText;
    return new VeriformError(response.status, problem, response.headers, fallback);
  }
}

/** No answer at all: the connection failed or the request timed out (after any retries). */
export class VeriformConnectionError extends Error {
  override readonly name = 'VeriformConnectionError';
  readonly timedOut: boolean;

  constructor(message: string, options: { cause: unknown; timedOut: boolean }) {
    super(message, { cause: options.cause });
    this.timedOut = options.timedOut;
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function isProblem(body: unknown): body is Problem {
  return (
    isRecord(body) &&
    typeof body.type === 'string' &&
    typeof body.title === 'string' &&
    typeof body.status === 'number' &&
    typeof body.code === 'string' &&
    (body.errors === undefined || Array.isArray(body.errors))
  );
}

/** `Retry-After` as seconds from `nowMs`: delta-seconds or an HTTP date (RFC 9110 §10.2.3); null without one. */
export function retryAfterSecondsOf(headers: Headers, nowMs: number): number | null {
  const value = headers.get('retry-after')?.trim();
  if (!value) return null;
  if (/^\d+$/.test(value)) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - nowMs) / 1000));
}
