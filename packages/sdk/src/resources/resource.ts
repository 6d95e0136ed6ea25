import { randomUUID } from 'node:crypto';
import { VeriformError } from '../errors.ts';
import { type ApiClient, IDEMPOTENCY_KEY_HEADER } from '../transport.ts';

/**
 * What every resource builds on. A method is one call of the typed client (`this.api.GET|POST(path, init)`, checked
 * against `schema.ts` by the compiler) passed to `answer`, which returns the body or throws VeriformError; lists go
 * through `listOf` (pagination.ts). A new resource is a class of such methods (resources/verifications.ts is the model),
 * a property of `Veriform` and a line per operation in client.ts's `operationMethods`.
 */

export type RequestOptions = {
  /** Aborts the request (and its retries). */
  signal?: AbortSignal;
};

export type PostOptions = RequestOptions & {
  /**
   * Sent as `Idempotency-Key`: the same key with the same request within 24 hours answers the first answer again
   * without acting twice. When retries are on (`maxRetries` > 0, the default) and none is given, the SDK makes one per
   * call (a UUID), so its own retries of a POST are safe.
   */
  idempotencyKey?: string;
};

export type ResourceContext = { api: ApiClient; autoIdempotencyKeys: boolean };

export abstract class Resource {
  protected readonly api: ApiClient;
  readonly #autoIdempotencyKeys: boolean;

  constructor(context: ResourceContext) {
    this.api = context.api;
    this.#autoIdempotencyKeys = context.autoIdempotencyKeys;
  }

  /** The fetch options of a GET. */
  protected readInit(options: RequestOptions = {}): { signal?: AbortSignal } {
    return options.signal ? { signal: options.signal } : {};
  }

  /** The fetch options of a POST: its idempotency key, given or made. */
  protected writeInit(options: PostOptions = {}): { signal?: AbortSignal; headers?: Record<string, string> } {
    const key = options.idempotencyKey ?? (this.#autoIdempotencyKeys ? randomUUID() : undefined);
    return {
      ...this.readInit(options),
      ...(key === undefined ? {} : { headers: { [IDEMPOTENCY_KEY_HEADER]: key } }),
    };
  }
}

/** The body of a 2xx answer, or the answer's VeriformError. */
export async function answer<T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw VeriformError.of(response, error);
  if (data === undefined) throw new VeriformError(response.status, null, response.headers, 'empty answer');
  return data;
}
