import type {
  CheckCodeRequest,
  CheckCodeResponse,
  PublicDeliveryStatus,
  PublicRevocationRequest,
  PublicRevocationResponse,
  SendCodeRequest,
  SendCodeResponse,
} from '@veriform/contracts';
import { publicVerifyPaths } from '@veriform/contracts/public-verify-paths';

/**
 * The public page's calls (DESIGN §5). A few lines of fetch instead of the app's api client, which brings zod
 * and the app's error texts: this page has a JavaScript budget. For the same reason the paths come from the contract's
 * zod-free module (the declarations with their schemas, `publicVerifyEndpoints`, use the same constants). Every
 * outcome is a value, never a thrown error, so the page maps each one to what the consumer sees.
 */

/** Same shape as the app's FetchLike, so tests can use the shared fake server. */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export type Failure =
  /** 400: messages per field (first of each) and the rest (nonFieldErrors, fields the page does not show). */
  | { kind: 'validation'; fields: Record<string, string>; others: string[] }
  /** 429 and other 4xx with a `detail`: the server's text, already in the form's language. */
  | { kind: 'detail'; detail: string }
  | { kind: 'notFound' }
  /** 5xx, a CSRF refusal (a new token needs a reload), an answer the page cannot read. */
  | { kind: 'server' }
  | { kind: 'network' };

export type Result<T> = { ok: true; data: T } | { ok: false; failure: Failure };

const IGNORED_KEYS = new Set(['MainCode_']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function messagesOf(value: unknown): string[] {
  const list = Array.isArray(value) ? value : [value];
  return list.filter((item): item is string => typeof item === 'string' && item !== '');
}

function validationFailure(body: unknown): Failure {
  if (!isRecord(body)) return { kind: 'server' };
  const fields: Record<string, string> = {};
  const others: string[] = [];
  for (const [key, value] of Object.entries(body)) {
    if (IGNORED_KEYS.has(key)) continue;
    const messages = messagesOf(value);
    if (key === 'nonFieldErrors' || key === 'detail') others.push(...messages);
    else if (messages[0] !== undefined) fields[key] = messages[0];
  }
  if (Object.keys(fields).length === 0 && others.length === 0) return { kind: 'server' };
  return { kind: 'validation', fields, others };
}

function failureFor(status: number, body: unknown): Failure {
  if (status === 400) return validationFailure(body);
  if (status === 404) return { kind: 'notFound' };
  const detail = isRecord(body) && typeof body.detail === 'string' ? body.detail : undefined;
  // A CSRF refusal would need a fresh token, which only a reload brings: say "try again" rather than the
  // server's technical text.
  if (status >= 500 || !detail || (status === 403 && detail.includes('CSRF'))) return { kind: 'server' };
  return { kind: 'detail', detail };
}

async function postJson(
  fetchImpl: FetchLike,
  url: string,
  body: unknown,
  csrfToken: string,
): Promise<Result<unknown>> {
  let response: Response;
  try {
    response = await fetchImpl(url, {
      method: 'POST',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json', 'X-CSRFToken': csrfToken },
      body: JSON.stringify(body),
      credentials: 'same-origin',
    });
  } catch {
    return { ok: false, failure: { kind: 'network' } };
  }
  let payload: unknown;
  try {
    payload = await response.json();
  } catch {
    payload = undefined;
  }
  if (response.ok) return { ok: true, data: payload };
  return { ok: false, failure: failureFor(response.status, payload) };
}

async function getJson(fetchImpl: FetchLike, url: string): Promise<Result<unknown>> {
  let response: Response;
  try {
    response = await fetchImpl(url, {
      method: 'GET',
      headers: { Accept: 'application/json' },
      credentials: 'same-origin',
    });
  } catch {
    return { ok: false, failure: { kind: 'network' } };
  }
  let payload: unknown;
  try {
    payload = await response.json();
  } catch {
    payload = undefined;
  }
  if (response.ok) return { ok: true, data: payload };
  return { ok: false, failure: failureFor(response.status, payload) };
}

const DELIVERY_STATUSES = new Set(['queued', 'sent', 'delivered', 'undelivered', 'failed', 'unknown']);

function isDeliveryStatus(value: unknown): value is PublicDeliveryStatus {
  return (
    isRecord(value) &&
    typeof value.status === 'string' &&
    DELIVERY_STATUSES.has(value.status) &&
    (value.message === null || typeof value.message === 'string') &&
    typeof value.suggestEmail === 'boolean'
  );
}

function isSendCodeResponse(value: unknown): value is SendCodeResponse {
  return (
    isRecord(value) &&
    typeof value.attemptId === 'string' &&
    typeof value.resendAfterSeconds === 'number' &&
    typeof value.sentTo === 'string' &&
    typeof value.cellPhone === 'string'
  );
}

function isCheckCodeResponse(value: unknown): value is CheckCodeResponse {
  return isRecord(value) && value.verified === true;
}

function isRevocationResponse(value: unknown): value is PublicRevocationResponse {
  return isRecord(value) && typeof value.id === 'string' && typeof value.receivedAt === 'string';
}

function narrow<T>(result: Result<unknown>, guard: (value: unknown) => value is T): Result<T> {
  if (!result.ok) return result;
  return guard(result.data) ? { ok: true, data: result.data } : { ok: false, failure: { kind: 'server' } };
}

/** A path of the contract with its one parameter filled, URL-encoded. */
const pathWith = (path: string, value: string) => path.replace(/:\w+/, encodeURIComponent(value));

export interface PublicApi {
  sendCode(publicId: string, request: SendCodeRequest): Promise<Result<SendCodeResponse>>;
  checkCode(attemptId: string, request: CheckCodeRequest): Promise<Result<CheckCodeResponse>>;
  /** Issue #18: what became of the code's message, polled while the consumer waits. */
  deliveryStatus(attemptId: string): Promise<Result<PublicDeliveryStatus>>;
  /** Issue #35: the consumer's revocation of consent, from the form's revocation page. */
  revoke(publicId: string, request: PublicRevocationRequest): Promise<Result<PublicRevocationResponse>>;
}

export function createPublicApi(csrfToken: string, fetchImpl?: FetchLike): PublicApi {
  // Looked up at call time, so a test's stubbed global fetch is seen too.
  const doFetch: FetchLike = fetchImpl ?? ((input, init) => globalThis.fetch(input, init));
  return {
    async sendCode(publicId, request) {
      const url = pathWith(publicVerifyPaths.sendCode, publicId);
      return narrow(await postJson(doFetch, url, request, csrfToken), isSendCodeResponse);
    },
    async checkCode(attemptId, request) {
      const url = pathWith(publicVerifyPaths.check, attemptId);
      return narrow(await postJson(doFetch, url, request, csrfToken), isCheckCodeResponse);
    },
    async deliveryStatus(attemptId) {
      const url = pathWith(publicVerifyPaths.delivery, attemptId);
      return narrow(await getJson(doFetch, url), isDeliveryStatus);
    },
    async revoke(publicId, request) {
      const url = pathWith(publicVerifyPaths.revoke, publicId);
      return narrow(await postJson(doFetch, url, request, csrfToken), isRevocationResponse);
    },
  };
}
