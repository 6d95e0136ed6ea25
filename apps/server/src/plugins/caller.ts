import type { ApiKeyMode, ApiKeyScope } from '@veriform/contracts';
import type { FastifyRequest } from 'fastify';
import type { UserRow } from '../lib/rows.ts';

/**
 * Who is calling: the logged-in person of the session cookie, or an API key named by `Authorization: Bearer …`.
 * `callerOf` is the one place that decides it for account-scoped routes (plugins/tenancy.ts). A request that carries
 * a bearer token is the key's, never the session's, whatever cookie rides along: one request, one credential (a
 * revoked key used from a logged-in browser must not quietly act as the person). See ADR 15.
 */

/** An API key as its authenticator finds it. */
export type ApiKeyIdentity = {
  keyId: number;
  accountId: number;
  prefix: string;
  /** `test` keys reach only the account's test numbers (nothing is sent). */
  mode: ApiKeyMode;
  scopes: readonly ApiKeyScope[];
};

/** Finds the live key a bearer secret belongs to (the key table and its implementation arrive with issue #15). */
export type ApiKeyAuthenticator = {
  /** `ip` is the caller's address, kept as the key's "last used" (with the time). */
  authenticate(secret: string, context: { ip: string }): Promise<ApiKeyIdentity | null>;
};

/** Until issue #15 no key exists: every bearer token is unknown, so the request is anonymous (401). */
export const noApiKeys: ApiKeyAuthenticator = { authenticate: async () => null };

export type Caller = { type: 'session'; user: UserRow } | { type: 'api_key'; key: ApiKeyIdentity };

declare module 'fastify' {
  interface FastifyInstance {
    apiKeyAuthenticator: ApiKeyAuthenticator;
  }
}

/** The secret of `Authorization: Bearer <secret>` (scheme case-insensitive), or null without a bearer header. */
export function bearerToken(request: FastifyRequest): string | null {
  const match = /^Bearer(?:\s+(.*))?$/i.exec(request.headers.authorization ?? '');
  if (!match) return null;
  return (match[1] ?? '').trim();
}

/** A key lookup costs a query (issue #15): made once per request, however many hooks ask. */
const keyLookups = new WeakMap<FastifyRequest, Promise<ApiKeyIdentity | null>>();

export async function callerOf(request: FastifyRequest): Promise<Caller | null> {
  const token = bearerToken(request);
  if (token !== null) {
    let lookup = keyLookups.get(request);
    if (!lookup) {
      lookup =
        token === ''
          ? Promise.resolve(null)
          : request.server.apiKeyAuthenticator.authenticate(token, { ip: request.ip });
      keyLookups.set(request, lookup);
    }
    const key = await lookup;
    return key ? { type: 'api_key', key } : null;
  }
  // The session plugin sets both or neither; both are asked for, as auth-guard's requireSession does.
  if (request.user && request.session) return { type: 'session', user: request.user };
  return null;
}
