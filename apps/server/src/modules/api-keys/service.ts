import type { AuditTarget } from '@veriform/contracts';
import {
  type ApiKey,
  type ApiKeyList,
  apiKeyTexts,
  type CreateApiKeyRequest,
  type CreatedApiKey,
  type CreatedBy,
  MAX_ACTIVE_API_KEYS,
} from '@veriform/contracts';
import type { Db } from '@veriform/db';
import { schema, transaction } from '@veriform/db';
import { and, count, desc, eq, isNull } from 'drizzle-orm';
import { lockAccount } from '../../lib/account-lock.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import { type AccountContext, assertStillCan, memberOf } from '../../plugins/account-context.ts';
import type { AuditLog } from '../audit/index.ts';
import { createApiKeyAuthenticator, isApiKeyScope } from './authenticator.ts';
import { API_KEY_PREFIX_LENGTH, generateApiKey, hashApiKey } from './key-format.ts';

const { apiKeys, users } = schema;

/** Every column but the secret's hash, which never leaves the database but for the bearer lookup. */
const listed = {
  id: apiKeys.id,
  accountId: apiKeys.accountId,
  name: apiKeys.name,
  mode: apiKeys.mode,
  prefix: apiKeys.prefix,
  scopes: apiKeys.scopes,
  createdAt: apiKeys.createdAt,
  lastUsedAt: apiKeys.lastUsedAt,
  lastUsedIp: apiKeys.lastUsedIp,
  revokedAt: apiKeys.revokedAt,
};

type ListedRow = Omit<typeof apiKeys.$inferSelect, 'secretHash' | 'createdByUserId'>;

/** The creator as lists show them (ADR 30), from a LEFT JOIN of users: null when unknown. */
const creator = { id: users.id, name: users.name, email: users.email };

const toDto = (row: ListedRow, createdBy: CreatedBy): ApiKey => ({
  id: row.id,
  account: row.accountId,
  name: row.name,
  mode: row.mode,
  prefix: row.prefix,
  scopes: row.scopes.filter(isApiKeyScope),
  created: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  lastUsedIp: row.lastUsedIp,
  revokedAt: row.revokedAt?.toISOString() ?? null,
  createdBy,
});

/**
 * API keys (issue #15; ADR 16), managed by owners (the routes ask `manageCompany`, which no scope grants: a key
 * cannot make keys). The key's text is generated here and returned once by `create`; the table keeps its SHA-256.
 * At most MAX_ACTIVE_API_KEYS unrevoked keys per account: counted and inserted under the account row's lock, so a
 * burst of creations cannot pass it. Revoking is final and idempotent; `authenticate` is the bearer lookup
 * (authenticator.ts), so this service is the app's ApiKeyAuthenticator.
 */
export function createApiKeyService(deps: {
  db: Db;
  clock: Clock;
  /** The audit log (issue #16): write with the change's own transaction. */
  audit: AuditLog;
}) {
  const { db, clock, audit } = deps;
  const { authenticate } = createApiKeyAuthenticator(deps);
  const keyTarget = (key: { id: number; name: string; prefix: string }): AuditTarget => ({
    type: 'api_key',
    id: String(key.id),
    name: `${key.name} (${key.prefix}…)`,
  });

  /** Newest first, revoked ones included, each with its creator. */
  async function list(ctx: AccountContext): Promise<ApiKeyList> {
    const rows = await db
      .select({ key: listed, creator })
      .from(apiKeys)
      .leftJoin(users, eq(users.id, apiKeys.createdByUserId))
      .where(eq(apiKeys.accountId, ctx.accountId))
      .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
    return { results: rows.map((row) => toDto(row.key, row.creator)) };
  }

  async function create(ctx: AccountContext, body: CreateApiKeyRequest): Promise<CreatedApiKey> {
    const { user } = memberOf(ctx);
    const createdBy = user.id;
    const key = generateApiKey(body.mode);
    const row = await transaction(db, async (tx) => {
      await lockAccount(tx, ctx.accountId);
      // The owner's rights were checked before the lock; one demoted or removed meanwhile loses them here.
      await assertStillCan(tx, ctx, 'manageCompany');
      const [active] = await tx
        .select({ n: count() })
        .from(apiKeys)
        .where(and(eq(apiKeys.accountId, ctx.accountId), isNull(apiKeys.revokedAt)));
      if ((active?.n ?? 0) >= MAX_ACTIVE_API_KEYS)
        throw AppError.nonField('validation_error', apiKeyTexts.tooMany);
      const [inserted] = await tx
        .insert(apiKeys)
        .values({
          accountId: ctx.accountId,
          name: body.name,
          mode: body.mode,
          prefix: key.slice(0, API_KEY_PREFIX_LENGTH),
          secretHash: hashApiKey(key),
          scopes: body.scopes,
          createdByUserId: createdBy,
          createdAt: clock.now(),
        })
        .returning(listed);
      if (!inserted) throw new Error('API key insert returned no row');
      await audit.record(tx, ctx, {
        action: 'api_key.created',
        targets: [keyTarget(inserted)],
        changes: { mode: [null, inserted.mode], scopes: [null, inserted.scopes] },
      });
      return inserted;
    });
    return { ...toDto(row, { id: user.id, name: user.name, email: user.email }), key };
  }

  /**
   * Revokes key `id` of the account at once (no process caches keys); a key revoked before keeps its first
   * revocation time. 404 for an id that is not the account's.
   */
  async function revoke(ctx: AccountContext, id: number): Promise<void> {
    await transaction(db, async (tx) => {
      // Only a revocation that happens is recorded: a second DELETE changes nothing and says nothing.
      const [revoked] = await tx
        .update(apiKeys)
        .set({ revokedAt: clock.now() })
        .where(and(eq(apiKeys.accountId, ctx.accountId), eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
        .returning({ id: apiKeys.id, name: apiKeys.name, prefix: apiKeys.prefix });
      if (revoked) {
        await audit.record(tx, ctx, { action: 'api_key.revoked', targets: [keyTarget(revoked)] });
        return;
      }
      const [exists] = await tx
        .select({ id: apiKeys.id })
        .from(apiKeys)
        .where(and(eq(apiKeys.accountId, ctx.accountId), eq(apiKeys.id, id)))
        .limit(1);
      if (!exists) throw new AppError('not_found');
    });
  }

  return { list, create, revoke, authenticate };
}

export type ApiKeyService = ReturnType<typeof createApiKeyService>;
