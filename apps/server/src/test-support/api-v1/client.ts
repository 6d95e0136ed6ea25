import type { ApiKeyScope, CreatedApiKey } from '@veriform/contracts';
import { type ApiClient, createApiClient } from '@veriform/sdk';
import type { FastifyInstance } from 'fastify';
import type { Owner } from '../teams.ts';

/**
 * API v1 as an integrator calls it: the SDK's own transport (packages/sdk, `createApiClient`: openapi-fetch typed by
 * the SDK's `schema.ts`, which openapi-typescript generates from the app's own OpenAPI document; `docs.test.ts` fails
 * when the two differ). Requests go through `app.inject`, so no port is needed; `fetch` semantics (Request in,
 * Response out) are kept, headers and status included.
 */

export const API_TEST_BASE = 'http://veriform.test';

/** A fetch that answers from the app itself. */
export function injectFetch(app: FastifyInstance) {
  return async (input: Request): Promise<Response> => {
    const url = new URL(input.url);
    const body = input.body ? Buffer.from(await input.arrayBuffer()) : undefined;
    const response = await app.inject({
      method: input.method as 'GET',
      url: `${url.pathname}${url.search}`,
      headers: Object.fromEntries(input.headers),
      ...(body ? { payload: body } : {}),
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      if (value === undefined) continue;
      for (const one of [value].flat()) headers.append(name, String(one));
    }
    const noBody = response.statusCode === 204 || response.statusCode === 304;
    return new Response(noBody ? null : response.rawPayload, { status: response.statusCode, headers });
  };
}

/** The typed client of a key, without retries: a test sees every answer (a 429, a 5xx) as the server gave it. */
export function apiV1(app: FastifyInstance, key: string, headers: Record<string, string> = {}): ApiClient {
  return createApiClient({
    apiKey: key,
    baseUrl: API_TEST_BASE,
    fetch: injectFetch(app),
    maxRetries: 0,
    headers,
  });
}

/** A new key of the owner's account, through the session API as the settings page makes one. */
export async function newApiKey(
  owner: Pick<Owner, 'c' | 'accountId'>,
  scopes: ApiKeyScope[],
  mode: 'live' | 'test' = 'test',
  name = 'Test key',
): Promise<CreatedApiKey> {
  const response = await owner.c.post('/api/api-keys', { account: owner.accountId, name, mode, scopes });
  if (response.statusCode !== 201) throw new Error(`create API key: ${response.statusCode} ${response.body}`);
  return response.json<CreatedApiKey>();
}

/**
 * One API v1 request with a key, as raw as a customer's HTTP client sends it (no typed client): for the answers a
 * typed client cannot ask for (bad bodies, wrong types, another mode's ids) and for concurrent bursts.
 */
export function keyCall(app: FastifyInstance, key: string) {
  return (method: 'GET' | 'POST', url: string, body?: unknown) =>
    app.inject({
      method,
      url,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
}
