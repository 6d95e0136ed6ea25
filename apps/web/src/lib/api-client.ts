import {
  authEndpoints,
  type Endpoint,
  type EndpointOutput,
  errorTexts,
  fillPath,
  MAIN_CODE_KEY,
  type PathParamNames,
  type PathValues,
  unexpectedStatusText,
} from '@veriform/contracts';
import { z } from 'zod';

/**
 * The single way the web app talks to the server (SPEC §6, §7, §8): JSON both ways, same-origin cookies, the CSRF
 * header on unsafe methods (retried once with a fresh token after a CSRF failure), and every error status mapped to
 * one error class with the text the spec prescribes.
 */

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
export const CSRF_HEADER = 'X-CSRFToken';
const NON_FIELD_ERRORS_KEY = 'nonFieldErrors';

export class ApiError extends Error {
  readonly status: number;
  /** The server's `detail` text, when it sent one. */
  readonly detail: string | undefined;

  constructor(status: number, message: string, detail?: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.detail = detail;
  }
}

/** 400: per-field messages (first of each field), non-field messages and the main code (SPEC §5, §8). */
export class ApiValidationError extends ApiError {
  readonly fieldErrors: Readonly<Record<string, string>>;
  readonly nonFieldErrors: readonly string[];
  readonly mainCode: string | undefined;

  constructor(fieldErrors: Record<string, string>, nonFieldErrors: string[], mainCode: string | undefined) {
    const firstField = Object.entries(fieldErrors)[0];
    super(
      400,
      nonFieldErrors[0] ?? (firstField ? `${firstField[0]}: ${firstField[1]}` : unexpectedStatusText(400)),
    );
    this.name = 'ApiValidationError';
    this.fieldErrors = fieldErrors;
    this.nonFieldErrors = nonFieldErrors;
    this.mainCode = mainCode;
  }
}

export class NotAuthenticatedError extends ApiError {
  constructor(detail: string) {
    super(401, detail, detail);
    this.name = 'NotAuthenticatedError';
  }
}

export class PermissionDeniedError extends ApiError {
  /** The body's MainCode_ (`step_up_required`, `mfa_setup_required`), when it named one. */
  readonly mainCode: string | undefined;

  constructor(detail: string | undefined, mainCode?: string) {
    super(403, errorTexts.permissionDenied, detail);
    this.name = 'PermissionDeniedError';
    this.mainCode = mainCode;
  }
}

export const STEP_UP_CANCELED_TEXT = 'Nothing was changed: confirming it is you was canceled.';

/** The person closed the step-up dialog (issue #38): the call was not made again, nothing changed. */
export class StepUpCanceledError extends ApiError {
  constructor() {
    super(403, STEP_UP_CANCELED_TEXT);
    this.name = 'StepUpCanceledError';
  }
}

/**
 * Asked when a call answers 403 `step_up_required`: resolves true once the person has proved their second factor
 * again (`POST /api/auth/step-up`), false when they canceled.
 */
export type StepUpHandler = () => Promise<boolean>;

export class NotFoundError extends ApiError {
  constructor(detail: string | undefined) {
    super(404, errorTexts.notFound, detail);
    this.name = 'NotFoundError';
  }
}

export class RateLimitedError extends ApiError {
  constructor(detail: string | undefined) {
    super(429, detail ?? unexpectedStatusText(429), detail);
    this.name = 'RateLimitedError';
  }
}

export class ServerError extends ApiError {
  constructor(status: number, detail: string | undefined) {
    super(status, errorTexts.serverError, detail);
    this.name = 'ServerError';
  }
}

/** The request never got an answer (offline, DNS, server down). */
export class NetworkError extends ApiError {
  constructor() {
    super(0, 'Could not reach the server. Check your connection and try again.');
    this.name = 'NetworkError';
  }
}

export type QueryValue =
  | string
  | number
  | boolean
  | null
  | undefined
  | readonly (string | number | boolean)[];
export type QueryParams = Readonly<Record<string, QueryValue>>;

/**
 * `?a=1&b=x%20y`, or '' when nothing is left. Undefined (and null) values are skipped; lists are sent comma-separated
 * (`category__in=a,b`); everything is URL-encoded.
 */
export function buildQueryString(params: QueryParams | undefined): string {
  if (!params) return '';
  const parts: string[] = [];
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    const text = Array.isArray(value) ? value.map(String).join(',') : String(value);
    parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(text)}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

export interface RequestOptions<T> {
  /** Parses (and types) the success body; pass `noContent` when the answer does not matter. */
  schema: z.ZodType<T>;
  query?: QueryParams;
  /** Sent as JSON. */
  body?: unknown;
  signal?: AbortSignal;
}

/** For calls whose answer is ignored (204, `{}`, `{detail}`). */
export const noContent = z.unknown();

/**
 * What a call of a declared endpoint takes: its path's values, its query and its JSON body (their schemas' input
 * types) or, for an upload, the form data.
 */
export type CallInput<E extends Endpoint> = (PathParamNames<E['path']> extends never
  ? { params?: undefined }
  : { params: PathValues<E['path']> }) &
  (E['query'] extends z.ZodType ? { query: z.input<E['query']> } : { query?: undefined }) &
  (E['body'] extends z.ZodType
    ? { body: z.input<E['body']> }
    : E['body'] extends 'multipart'
      ? { formData: FormData }
      : { body?: undefined }) & { signal?: AbortSignal };

const isQueryParams = (value: unknown): value is QueryParams =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export interface ApiClientOptions {
  /** The fetch implementation (a boundary; tests inject a fake). Defaults to the global fetch. */
  fetch?: FetchLike;
  /** The token from the initial page data, when there is one. */
  csrfToken?: string | null;
  /** Called when the server says the request was not authenticated (SPEC §6). */
  onNotAuthenticated?: (error: NotAuthenticatedError) => void;
}

/** 403 with this main code: the account requires a second factor the person has not set up (issue #38). */
const MFA_SETUP_REQUIRED = 'mfa_setup_required';
const STEP_UP_REQUIRED = 'step_up_required';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function mainCodeOf(body: unknown): string | undefined {
  return isRecord(body) && typeof body[MAIN_CODE_KEY] === 'string' ? body[MAIN_CODE_KEY] : undefined;
}

function detailOf(body: unknown): string | undefined {
  return isRecord(body) && typeof body.detail === 'string' ? body.detail : undefined;
}

function firstMessage(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    const first = value.find((item) => typeof item === 'string');
    return typeof first === 'string' ? first : undefined;
  }
  return undefined;
}

/** Maps a 400 body `{<field>: [msg], nonFieldErrors: [msg], MainCode_: code}`; MainCode_ is never a field. */
export function validationErrorFromBody(body: unknown): ApiValidationError {
  const fieldErrors: Record<string, string> = {};
  const nonFieldErrors: string[] = [];
  let mainCode: string | undefined;
  if (isRecord(body)) {
    for (const [key, value] of Object.entries(body)) {
      if (key === MAIN_CODE_KEY) {
        if (typeof value === 'string') mainCode = value;
      } else if (key === NON_FIELD_ERRORS_KEY || key === 'detail') {
        const messages = Array.isArray(value) ? value : [value];
        for (const message of messages) if (typeof message === 'string') nonFieldErrors.push(message);
      } else {
        const message = firstMessage(value);
        if (message !== undefined) fieldErrors[key] = message;
      }
    }
  }
  return new ApiValidationError(fieldErrors, nonFieldErrors, mainCode);
}

function isCsrfFailure(status: number, body: unknown): boolean {
  return status === 403 && (detailOf(body)?.includes('CSRF') ?? false);
}

function isNotAuthenticated(status: number, body: unknown): boolean {
  return (
    (status === 401 || status === 403) && (detailOf(body)?.includes(errorTexts.notAuthenticated) ?? false)
  );
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export class ApiClient {
  private readonly fetchImpl: FetchLike;
  private csrfToken: string | null;
  private pendingCsrf: Promise<string> | null = null;
  private onNotAuthenticated: ((error: NotAuthenticatedError) => void) | undefined;
  private onStepUpRequired: StepUpHandler | undefined;
  private onMfaSetupRequired: (() => void) | undefined;

  constructor(options: ApiClientOptions = {}) {
    this.fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.csrfToken = options.csrfToken || null;
    this.onNotAuthenticated = options.onNotAuthenticated;
  }

  getCsrfToken(): string | null {
    return this.csrfToken;
  }

  setCsrfToken(token: string | null): void {
    this.csrfToken = token || null;
  }

  setNotAuthenticatedHandler(handler: ((error: NotAuthenticatedError) => void) | undefined): void {
    this.onNotAuthenticated = handler;
  }

  /**
   * Who proves the second factor again when a call answers 403 `step_up_required` (the step-up dialog, issue #38):
   * the call is then made once more; without a handler, or when it resolves false, the call fails.
   */
  setStepUpHandler(handler: StepUpHandler | undefined): void {
    this.onStepUpRequired = handler;
  }

  /** Told when a call answers 403 `mfa_setup_required` (the account requires a second factor; issue #38). */
  setMfaSetupRequiredHandler(handler: (() => void) | undefined): void {
    this.onMfaSetupRequired = handler;
  }

  /** A fresh token (its request needs none); concurrent callers share one request. */
  refreshCsrfToken(): Promise<string> {
    if (!this.pendingCsrf) {
      const { method, path, response } = authEndpoints.csrf;
      this.pendingCsrf = this.send(method, path, { schema: response.body }, false)
        .then(({ csrfToken }) => csrfToken)
        .finally(() => {
          this.pendingCsrf = null;
        });
    }
    return this.pendingCsrf;
  }

  /**
   * Calls a session-API endpoint as its contract declares it (packages/contracts/src/endpoints.ts): the method, the
   * path filled with `params`, the query and body, and the answer parsed with the declared schema.
   */
  call<const E extends Endpoint>(endpoint: E, input: CallInput<E>): Promise<EndpointOutput<E>> {
    const { method, path, response } = endpoint;
    const url = fillPath(path, input.params);
    const query = 'query' in input && isQueryParams(input.query) ? input.query : undefined;
    const options = {
      schema: response.body ?? noContent,
      query,
      body: 'body' in input ? input.body : undefined,
      signal: input.signal,
    };
    const formData = 'formData' in input && input.formData instanceof FormData ? input.formData : undefined;
    // The schema is the endpoint's own (`response.body`), so what it parses to is EndpointOutput<E>.
    return this.request(method, url, options, formData) as Promise<EndpointOutput<E>>;
  }

  /**
   * A request by method and path, the one primitive under `call` (and this client's own tests): the CSRF token on
   * unsafe methods, retried once with a fresh token on a CSRF failure, the answer parsed with `options.schema`, a
   * multipart body when `formData` is given (the browser sets its content type and boundary).
   */
  async request<T>(
    method: string,
    path: string,
    options: RequestOptions<T>,
    formData?: FormData,
  ): Promise<T> {
    return this.send(method.toUpperCase(), path, options, true, formData);
  }

  private async send<T>(
    method: string,
    path: string,
    options: RequestOptions<T>,
    withCsrf: boolean,
    formData?: FormData,
  ): Promise<T> {
    const needsCsrf = withCsrf && !SAFE_METHODS.has(method);
    const url = `${path}${buildQueryString(options.query)}`;

    const attempt = async (token: string | null) => {
      const headers: Record<string, string> = { Accept: 'application/json' };
      let body: BodyInit | undefined;
      if (formData) {
        body = formData;
      } else if (options.body !== undefined) {
        headers['Content-Type'] = 'application/json';
        body = JSON.stringify(options.body);
      }
      if (token) headers[CSRF_HEADER] = token;
      let response: Response;
      try {
        response = await this.fetchImpl(url, {
          method,
          headers,
          body,
          credentials: 'same-origin',
          signal: options.signal,
        });
      } catch (error) {
        if (error instanceof DOMException && error.name === 'AbortError') throw error;
        throw new NetworkError();
      }
      return { response, payload: await readBody(response) };
    };

    let result = await attempt(needsCsrf ? (this.csrfToken ?? (await this.refreshCsrfToken())) : null);
    if (needsCsrf && isCsrfFailure(result.response.status, result.payload)) {
      // SPEC §6, §9: a CSRF failure is retried exactly once, with a freshly fetched token.
      this.csrfToken = null;
      result = await attempt(await this.refreshCsrfToken());
    }
    if (
      result.response.status === 403 &&
      mainCodeOf(result.payload) === STEP_UP_REQUIRED &&
      this.onStepUpRequired
    ) {
      // Issue #38: a sensitive call asks for a fresh proof; once given, the same call is made once more.
      if (!(await this.onStepUpRequired())) throw new StepUpCanceledError();
      result = await attempt(needsCsrf ? (this.csrfToken ?? (await this.refreshCsrfToken())) : null);
    }

    const { response, payload } = result;
    if (response.ok) {
      if (isRecord(payload) && typeof payload.csrfToken === 'string') this.csrfToken = payload.csrfToken;
      const parsed = options.schema.safeParse(payload);
      if (!parsed.success) {
        console.error(`Unexpected response shape from ${method} ${path}`, parsed.error.issues);
        throw new ApiError(response.status, unexpectedStatusText(response.status));
      }
      return parsed.data;
    }
    throw this.errorFor(response.status, payload);
  }

  private errorFor(status: number, payload: unknown): ApiError {
    const detail = detailOf(payload);
    if (isNotAuthenticated(status, payload)) {
      const error = new NotAuthenticatedError(detail ?? errorTexts.notAuthenticated);
      this.onNotAuthenticated?.(error);
      return error;
    }
    if (status === 400) return validationErrorFromBody(payload);
    if (status === 401) return new NotAuthenticatedError(detail ?? errorTexts.notAuthenticated);
    if (status === 403) {
      const mainCode = mainCodeOf(payload);
      if (mainCode === MFA_SETUP_REQUIRED) this.onMfaSetupRequired?.();
      return new PermissionDeniedError(detail, mainCode);
    }
    if (status === 404) return new NotFoundError(detail);
    // A conflict (a second release, held evidence's redaction) says why in its detail: the one line shown.
    if (status === 409) return new ApiError(409, detail ?? unexpectedStatusText(409), detail);
    if (status === 429) return new RateLimitedError(detail);
    if (status >= 500) return new ServerError(status, detail);
    return new ApiError(status, unexpectedStatusText(status), detail);
  }
}
