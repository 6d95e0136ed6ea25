import createClient, { type Client } from 'openapi-fetch';
import { retryAfterSecondsOf, VeriformConnectionError } from './errors.ts';
import type { paths } from './schema.ts';

/**
 * The transport: openapi-fetch, typed by `schema.ts`, over a `fetch` that adds the key, a timeout per attempt and the
 * retry policy (ADR 40). The resources (`resources/`) are thin methods on this client; `createApiClient` is exported
 * for callers (and the server's own API tests) who want the typed `GET`/`POST` of every path as is.
 */

export type FetchLike = (request: Request) => Promise<Response>;

export type VeriformOptions = {
  /** A `vf_test_…` or `vf_live_…` key from Settings → API keys. */
  apiKey: string;
  /** Where Veriform runs, e.g. `https://veriform.example` (the origin; `/api/v1/…` is added). */
  baseUrl: string | URL;
  /** Another fetch (a proxy agent, a test double); `globalThis.fetch` by default. */
  fetch?: FetchLike;
  /** Per attempt, until the whole answer is read; 30 s by default. */
  timeoutMs?: number;
  /** Retries after the first attempt (429, and 5xx or no answer for idempotent requests); 2 by default, at most 5. */
  maxRetries?: number;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
};

export type ApiClient = Client<paths>;

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_RETRIES = 2;
export const MAX_RETRIES_CAP = 5;
/** A `Retry-After` longer than this is not waited for: the error is thrown, with `retryAfterSeconds`. */
export const MAX_RETRY_AFTER_SECONDS = 60;
const BACKOFF_BASE_MS = 500;
const BACKOFF_MAX_MS = 8_000;

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

export function maxRetriesOf(options: Pick<VeriformOptions, 'maxRetries'>): number {
  const value = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  if (!Number.isInteger(value) || value < 0) throw new TypeError('maxRetries must be a whole number ≥ 0');
  return Math.min(value, MAX_RETRIES_CAP);
}

export function createApiClient(options: VeriformOptions): ApiClient {
  if (!options.apiKey) throw new TypeError('Veriform: apiKey is required (Settings → API keys).');
  const baseUrl = new URL(options.baseUrl).origin;
  return createClient<paths>({
    baseUrl,
    fetch: retryingFetch({
      fetch: options.fetch ?? ((request) => globalThis.fetch(request)),
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      maxRetries: maxRetriesOf(options),
    }),
    headers: { ...options.headers, Authorization: `Bearer ${options.apiKey}` },
  });
}

export type RetryPolicy = {
  fetch: FetchLike;
  timeoutMs: number;
  maxRetries: number;
  /** For tests: how to wait, and the jitter's source. */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
};

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Which requests may be sent again, and when:
 * - 429: always (the server refused before doing anything), after `Retry-After` when it is at most
 *   MAX_RETRY_AFTER_SECONDS, else not at all;
 * - 5xx, a timeout or no answer: only for an idempotent request, a GET or a POST with an `Idempotency-Key` (the server
 *   forgets a key whose answer was a 5xx, so the retry runs again; an answer that was lost on the way is replayed);
 * - 409 `idempotency_key_in_use`: the first request under the key is still running; wait and ask again.
 * Waits: `Retry-After` when given, else 0.5 s, 1 s, 2 s… (at most 8 s), each between half and all of that.
 */
export function retryingFetch(policy: RetryPolicy): FetchLike {
  const sleep = policy.sleep ?? sleepFor;
  const random = policy.random ?? Math.random;
  const backoff = (attempt: number) =>
    Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** attempt) * (0.5 + random() / 2);

  return async (request) => {
    const body = request.body === null ? null : await request.arrayBuffer();
    const idempotent =
      request.method === 'GET' || request.method === 'HEAD' || request.headers.has(IDEMPOTENCY_KEY_HEADER);
    for (let attempt = 0; ; attempt += 1) {
      const retriesLeft = attempt < policy.maxRetries;
      const signal = AbortSignal.any([request.signal, AbortSignal.timeout(policy.timeoutMs)]);
      const init = {
        method: request.method,
        headers: request.headers,
        body,
        signal,
        redirect: request.redirect,
      };
      let response: Response;
      try {
        response = await policy.fetch(new Request(request.url, init));
      } catch (error) {
        // The caller's own abort is theirs to handle, as with fetch.
        if (request.signal.aborted) throw error;
        if (idempotent && retriesLeft) {
          await sleep(backoff(attempt));
          continue;
        }
        const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
        const what = timedOut ? `timed out after ${policy.timeoutMs} ms` : 'failed';
        throw new VeriformConnectionError(`${request.method} ${request.url} ${what}`, {
          cause: error,
          timedOut,
        });
      }
      const delay = retriesLeft ? await retryDelayOf(response, idempotent, backoff(attempt)) : null;
      if (delay === null) return response;
      await response.body?.cancel();
      await sleep(delay);
    }
  };
}

/** How long to wait before sending the request again, or null not to. */
async function retryDelayOf(
  response: Response,
  idempotent: boolean,
  backoffMs: number,
): Promise<number | null> {
  const { status, headers } = response;
  const retryAfter = retryAfterSecondsOf(headers, Date.now());
  const waitFor = () =>
    retryAfter === null ? backoffMs : retryAfter <= MAX_RETRY_AFTER_SECONDS ? retryAfter * 1000 : null;
  if (status === 429) return waitFor();
  if (!idempotent) return null;
  if (status >= 500) return waitFor();
  if (status === 409 && (await problemCodeOf(response)) === 'idempotency_key_in_use') return backoffMs;
  return null;
}

async function problemCodeOf(response: Response): Promise<unknown> {
  if (!response.headers.get('content-type')?.startsWith('application/problem+json')) return null;
  try {
    const body: unknown = await response.clone().json();
    return typeof body === 'object' && body !== null && 'code' in body ? body.code : null;
  } catch {
    return null;
  }
}
