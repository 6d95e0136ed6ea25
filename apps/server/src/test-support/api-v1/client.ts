import type { ApiKeyScope, CreatedApiKey } from '@veriform/contracts';
import type { FastifyInstance } from 'fastify';
import createClient from 'openapi-fetch';
import type { Owner } from '../teams.ts';
import type { paths } from './schema.ts';

/**
 * API v1 as an integrator calls it: openapi-fetch typed by `schema.ts`, which openapi-typescript generates from the
 * app's own OpenAPI document (`docs.test.ts` fails when the two differ). Requests go through `app.inject`, so no port
 * is needed; `fetch` semantics (Request in, Response out) are kept, headers and status included.
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

export function apiV1(app: FastifyInstance, key: string, headers: Record<string, string> = {}) {
  return createClient<paths>({
    baseUrl: API_TEST_BASE,
    fetch: injectFetch(app),
    headers: { Authorization: `Bearer ${key}`, ...headers },
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
