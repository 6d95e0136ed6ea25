import {
  type AuditTarget,
  type KeepCredentials,
  type OwnedCredentials,
  ownedCredentialsTexts,
} from '@veriform/contracts';
import type { Db } from '@veriform/db';
import { schema } from '@veriform/db';
import { and, desc, eq, isNull, notInArray, type SQL } from 'drizzle-orm';
import { AppError } from '../../lib/errors.ts';
import type { AuditEntry } from '../audit/index.ts';
import { endpointTarget } from '../webhooks/index.ts';

const { apiKeys, webhookEndpoints } = schema;

/** As modules/api-keys names a key in the audit log: its name and public prefix. */
const apiKeyTarget = (key: { id: number; name: string; prefix: string }): AuditTarget => ({
  type: 'api_key',
  id: String(key.id),
  name: `${key.name} (${key.prefix}…)`,
});

/** Why a key was revoked or an endpoint disabled without its own request: its creator is no longer an owner. */
export type CredentialsCause = 'creator_removed' | 'creator_demoted';

const activeKeysOf = (accountId: number, userId: number) =>
  and(
    eq(apiKeys.accountId, accountId),
    eq(apiKeys.createdByUserId, userId),
    isNull(apiKeys.revokedAt),
  ) as SQL;
const enabledEndpointsOf = (accountId: number, userId: number) =>
  and(
    eq(webhookEndpoints.accountId, accountId),
    eq(webhookEndpoints.createdByUserId, userId),
    eq(webhookEndpoints.enabled, true),
  ) as SQL;

/**
 * What a person created in an account and still works (ADR 30): their active API keys and enabled webhook endpoints,
 * newest first. What removing or demoting them would take away, as the owner doing it is shown.
 */
export async function ownedCredentials(db: Db, accountId: number, userId: number): Promise<OwnedCredentials> {
  const keys = await db
    .select({ id: apiKeys.id, name: apiKeys.name, prefix: apiKeys.prefix, mode: apiKeys.mode })
    .from(apiKeys)
    .where(activeKeysOf(accountId, userId))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  const endpoints = await db
    .select({ id: webhookEndpoints.id, url: webhookEndpoints.url, description: webhookEndpoints.description })
    .from(webhookEndpoints)
    .where(enabledEndpointsOf(accountId, userId))
    .orderBy(desc(webhookEndpoints.createdAt), desc(webhookEndpoints.id));
  return { apiKeys: keys, webhookEndpoints: endpoints };
}

/** 400 on the field naming an id that is not one of `owned`'s: a kept id is never silently ignored. */
export function checkKept(owned: OwnedCredentials, keep: KeepCredentials): void {
  const keyIds = new Set(owned.apiKeys.map((key) => key.id));
  const endpointIds = new Set(owned.webhookEndpoints.map((endpoint) => endpoint.id));
  if ((keep.keepApiKeyIds ?? []).some((id) => !keyIds.has(id)))
    throw AppError.field('validation_error', 'keepApiKeyIds', ownedCredentialsTexts.notTheirs);
  if ((keep.keepWebhookEndpointIds ?? []).some((id) => !endpointIds.has(id)))
    throw AppError.field('validation_error', 'keepWebhookEndpointIds', ownedCredentialsTexts.notTheirs);
}

/**
 * Revokes the person's active keys and disables their enabled endpoints, but for those kept, in the caller's
 * transaction (a removal or demotion, under the account's lock, which key and endpoint creation take too: none is made
 * by them after this, none made before it escapes). Answers the audit entries to record: one per key revoked, endpoint
 * disabled, and key or endpoint kept, each naming the person (`personTargets`) after the object. The caller records
 * them after its own event, so every row is changed before the audit chain's head is taken (lib/account-lock.ts).
 */
export async function revokeCredentialsOf(
  tx: Db,
  input: {
    accountId: number;
    userId: number;
    keep: KeepCredentials;
    now: Date;
    cause: CredentialsCause;
    personTargets: AuditTarget[];
  },
): Promise<AuditEntry[]> {
  const { accountId, userId, now, cause, personTargets } = input;
  const owned = await ownedCredentials(tx, accountId, userId);
  checkKept(owned, input.keep);
  const keptKeys = input.keep.keepApiKeyIds ?? [];
  const keptEndpoints = input.keep.keepWebhookEndpointIds ?? [];

  const revoked = await tx
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(
      keptKeys.length > 0
        ? and(activeKeysOf(accountId, userId), notInArray(apiKeys.id, keptKeys))
        : activeKeysOf(accountId, userId),
    )
    .returning({ id: apiKeys.id, name: apiKeys.name, prefix: apiKeys.prefix });
  const disabled = await tx
    .update(webhookEndpoints)
    .set({ enabled: false, disabledAt: now, disabledReason: 'creator_removed' })
    .where(
      keptEndpoints.length > 0
        ? and(enabledEndpointsOf(accountId, userId), notInArray(webhookEndpoints.id, keptEndpoints))
        : enabledEndpointsOf(accountId, userId),
    )
    .returning({ id: webhookEndpoints.id, url: webhookEndpoints.url });

  const byId = <T extends { id: number }>(a: T, b: T) => a.id - b.id;
  return [
    ...revoked.sort(byId).map(
      (key): AuditEntry => ({
        action: 'api_key.revoked',
        targets: [apiKeyTarget(key), ...personTargets],
        changes: { reason: cause },
      }),
    ),
    ...disabled.sort(byId).map(
      (endpoint): AuditEntry => ({
        action: 'webhook_endpoint.disabled',
        targets: [endpointTarget(endpoint), ...personTargets],
        changes: { enabled: [true, false], reason: cause },
      }),
    ),
    ...owned.apiKeys
      .filter((key) => keptKeys.includes(key.id))
      .sort(byId)
      .map(
        (key): AuditEntry => ({
          action: 'api_key.kept',
          targets: [apiKeyTarget(key), ...personTargets],
          changes: { reason: cause },
        }),
      ),
    ...owned.webhookEndpoints
      .filter((endpoint) => keptEndpoints.includes(endpoint.id))
      .sort(byId)
      .map(
        (endpoint): AuditEntry => ({
          action: 'webhook_endpoint.kept',
          targets: [endpointTarget(endpoint), ...personTargets],
          changes: { reason: cause },
        }),
      ),
  ];
}
