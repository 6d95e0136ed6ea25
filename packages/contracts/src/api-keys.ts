import { z } from 'zod';
import { type ApiKeyScope, apiKeyScopeSchema } from './api-key-scopes.ts';
import { createdBySchema } from './created-by.ts';
import { anyIdParams, created, endpoint, inAccount, noContent, ok } from './endpoints.ts';
import { MAX_INT_ID } from './lists.ts';
import { singleLineName } from './names.ts';

/**
 * API keys (issue #15; Settings → API keys, owners only). A key is `vf_live_…` or `vf_test_…`: 32 random bytes in
 * base62 and a 6-character CRC-32 checksum (a typo fails before any lookup). It is shown once, in the answer that
 * creates it; the server keeps its SHA-256 only. `prefix` is its public beginning (`vf_live_` and 4 more characters),
 * enough to tell keys apart in lists and logs.
 */

export const apiKeyModes = ['live', 'test'] as const;
export const apiKeyModeSchema = z.enum(apiKeyModes);
export type ApiKeyMode = z.infer<typeof apiKeyModeSchema>;

/** What a key does, in words, for the page that creates keys (the scopes' table is api-key-scopes.ts). */
export const apiKeyScopeDescriptions = {
  'verifications:write': 'Start, check, resend and cancel verifications',
  'verifications:read': 'Read verifications with full phone numbers and evidence',
  'forms:read': 'List the account’s forms',
  'audit:read': 'Read the audit log',
  'events:read': 'Read the account’s events as webhooks send them, numbers in full',
  'revocations:read': 'Read revocations of consent, numbers in full',
  'revocations:write': 'Record revocations received elsewhere and acknowledge them',
  'contactability:read': 'Ask whether a number may be contacted now, and list the answers',
  'privacy:read': 'Read data-subject requests, what they match and their access bundles',
  'privacy:write': 'File data-subject requests, extend them and carry them out (erasure redacts evidence)',
} as const satisfies Record<ApiKeyScope, string>;

/** Unrevoked keys an account may hold at once (POST answers 400 past it; revoked keys do not count). */
export const MAX_ACTIVE_API_KEYS = 50;

export const apiKeyTexts = {
  tooMany: `An account can have at most ${MAX_ACTIVE_API_KEYS} active API keys. Revoke one you no longer use first.`,
} as const;

export const apiKeySchema = z.object({
  id: z.number().int(),
  account: z.number().int(),
  name: z.string(),
  mode: apiKeyModeSchema,
  /** The key's first 12 characters (`vf_live_AbCd`); never enough to use it. */
  prefix: z.string(),
  scopes: z.array(apiKeyScopeSchema),
  /** ISO 8601. */
  created: z.string(),
  lastUsedAt: z.string().nullable(),
  lastUsedIp: z.string().nullable(),
  /** Set once the key is revoked: it then answers 401 everywhere. Revoked keys stay listed, as evidence. */
  revokedAt: z.string().nullable(),
  /** The owner who created it (ADR 30); null when unknown. */
  createdBy: createdBySchema,
});
export type ApiKey = z.infer<typeof apiKeySchema>;

/** POST /api/api-keys → 201: the key with its secret, the only time the secret is shown. */
export const createdApiKeySchema = apiKeySchema.extend({ key: z.string() });
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;

export const createApiKeyRequestSchema = z.object({
  account: z.number().int().positive().max(MAX_INT_ID),
  name: singleLineName(100),
  mode: apiKeyModeSchema,
  scopes: z
    .array(apiKeyScopeSchema)
    .min(1)
    .max(apiKeyScopeSchema.options.length)
    .refine((scopes) => new Set(scopes).size === scopes.length, 'Each scope may be named once.'),
});
export type CreateApiKeyRequest = z.infer<typeof createApiKeyRequestSchema>;

/** GET /api/api-keys?account= → newest first, revoked ones included. */
export const apiKeyListQuerySchema = z.object({
  account: z.coerce.number().int().positive().max(MAX_INT_ID),
});
export const apiKeyListSchema = z.object({ results: z.array(apiKeySchema) });
export type ApiKeyList = z.infer<typeof apiKeyListSchema>;

/** The session API's API-key routes. */
export const apiKeyEndpoints = {
  /** Newest first, revoked ones included; never the secret. */
  list: endpoint('GET /api/api-keys', {
    query: apiKeyListQuerySchema,
    response: ok(apiKeyListSchema),
    access: inAccount('query.account', 'manageCompany'),
  }),
  /** `{account, name, mode, scopes}` → 201 with the secret `key`, the only time it is sent. */
  create: endpoint('POST /api/api-keys', {
    body: createApiKeyRequestSchema,
    response: created(createdApiKeySchema),
    access: inAccount('body.account', 'manageCompany'),
    stepUp: true,
  }),
  /** The key answers 401 at once. */
  revoke: endpoint('DELETE /api/api-keys/:id', {
    params: anyIdParams,
    response: noContent,
    access: { account: { from: { pathObject: 'apiKeys' }, can: 'manageCompany' } },
  }),
};
