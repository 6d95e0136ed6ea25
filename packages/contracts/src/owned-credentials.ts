import { z } from 'zod';
import { apiKeyModeSchema, MAX_ACTIVE_API_KEYS } from './api-keys.ts';
import { MAX_INT_ID } from './lists.ts';
import { MAX_WEBHOOK_ENDPOINTS } from './webhooks.ts';

/**
 * Keys and webhook endpoints belong to the owner who created them (issue #33 item 2, ADR 30). Lists name that person;
 * removing or demoting them revokes their keys and disables their endpoints in the same transaction, but for those
 * the owner doing it keeps by id.
 */

/**
 * GET /api/memberships/{id}/owned-credentials (owners): what removing or demoting that person would revoke or disable
 * now: their active API keys and their enabled webhook endpoints, newest first.
 */
export const ownedCredentialsSchema = z.object({
  apiKeys: z.array(
    z.object({ id: z.number().int(), name: z.string(), prefix: z.string(), mode: apiKeyModeSchema }),
  ),
  webhookEndpoints: z.array(z.object({ id: z.number().int(), url: z.string(), description: z.string() })),
});
export type OwnedCredentials = z.infer<typeof ownedCredentialsSchema>;

const idsSchema = (max: number) =>
  z
    .array(z.number().int().positive().max(MAX_INT_ID))
    .max(max)
    .refine((ids) => new Set(ids).size === ids.length, 'Each id may be named once.');

/**
 * What the owner removing or demoting someone keeps of theirs (ids from owned-credentials); everything else they
 * created is revoked or disabled. An id that is not one of theirs, active, answers 400 on its field.
 */
export const keepCredentialsSchema = z.object({
  keepApiKeyIds: idsSchema(MAX_ACTIVE_API_KEYS).optional(),
  keepWebhookEndpointIds: idsSchema(MAX_WEBHOOK_ENDPOINTS).optional(),
});
export type KeepCredentials = z.infer<typeof keepCredentialsSchema>;

/** DELETE /api/memberships/{id}: the body is optional (nothing kept). */
export const removeMembershipRequestSchema = keepCredentialsSchema.strict();
export type RemoveMembershipRequest = z.infer<typeof removeMembershipRequestSchema>;

export const ownedCredentialsTexts = {
  notTheirs: 'Only their own active keys and enabled endpoints can be kept.',
} as const;
