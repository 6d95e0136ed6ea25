import { type ApiKeyScope, apiKeyScopes } from '@veriform/contracts';
import type { Db } from '@veriform/db';
import { schema } from '@veriform/db';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Clock } from '../../lib/clock.ts';
import type { ApiKeyAuthenticator, ApiKeyIdentity } from '../../plugins/caller.ts';
import { hashApiKey, parseApiKey } from './key-format.ts';

const { apiKeys } = schema;

/** "Last used" is rewritten at most this often per key (and whenever the caller's address changes). */
export const LAST_USED_INTERVAL_MS = 60_000;

const knownScopes: readonly string[] = apiKeyScopes;
/** A stored scope this build does not know grants nothing (the table's column is plain text). */
export const isApiKeyScope = (scope: string): scope is ApiKeyScope => knownScopes.includes(scope);

/**
 * The bearer lookup of every request with `Authorization: Bearer …` (plugins/caller.ts). A malformed key, or one whose
 * checksum fails, is refused before any query. Otherwise ONE statement finds the unrevoked key by the SHA-256 of its
 * text through the unique index — a hash lookup, so no constant-time comparison is needed: what the database compares
 * is a digest the caller cannot steer byte by byte, and the timing of an index probe says nothing about the secret.
 * There is no cache: a revoked key answers 401 on its very next request, on every process. "Last used" (time and
 * address) is written by a second statement only when it is stale (ADR 16).
 */
export function createApiKeyAuthenticator(deps: { db: Db; clock: Clock }): ApiKeyAuthenticator {
  const { db, clock } = deps;

  async function authenticate(secret: string, context: { ip: string }): Promise<ApiKeyIdentity | null> {
    const parsed = parseApiKey(secret);
    if (!parsed) return null;
    const [row] = await db
      .select({
        id: apiKeys.id,
        accountId: apiKeys.accountId,
        prefix: apiKeys.prefix,
        mode: apiKeys.mode,
        scopes: apiKeys.scopes,
        lastUsedAt: apiKeys.lastUsedAt,
        lastUsedIp: apiKeys.lastUsedIp,
      })
      .from(apiKeys)
      .where(and(eq(apiKeys.secretHash, hashApiKey(secret)), isNull(apiKeys.revokedAt)))
      .limit(1);
    if (!row) return null;

    const now = clock.now();
    const staleBefore = new Date(now.getTime() - LAST_USED_INTERVAL_MS);
    const stale = !row.lastUsedAt || row.lastUsedAt < staleBefore || row.lastUsedIp !== context.ip;
    if (stale) {
      // The condition again in the statement: of a burst of requests that all read a stale row, the first write
      // makes the others' match nothing.
      await db
        .update(apiKeys)
        .set({ lastUsedAt: now, lastUsedIp: context.ip })
        .where(
          and(
            eq(apiKeys.id, row.id),
            or(
              isNull(apiKeys.lastUsedAt),
              lt(apiKeys.lastUsedAt, staleBefore),
              sql`${apiKeys.lastUsedIp} is distinct from ${context.ip}`,
            ),
          ),
        );
    }
    return {
      keyId: row.id,
      accountId: row.accountId,
      prefix: row.prefix,
      mode: row.mode,
      scopes: row.scopes.filter(isApiKeyScope),
    };
  }

  return { authenticate };
}
