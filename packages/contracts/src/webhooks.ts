import { z } from 'zod';
import { MAX_INT_ID } from './lists.ts';
import { hasLineBreakOrControl, singleLineTexts } from './names.ts';

/**
 * Webhook endpoints (issue #17; Settings → Webhooks, owners only). An endpoint is a URL of the customer's that
 * receives the account's events, signed the Standard Webhooks way with a `whsec_…` secret. The secret is shown only by
 * GET /api/webhook-endpoints/{id}/secret; everywhere else `secretPreview` (`whsec_` and 4 characters) tells secrets
 * apart. The server refuses URLs that lead into a private network (ADR 20), when saved and again when sent.
 */

export const webhookEventTypes = [
  'verification.code_sent',
  'verification.approved',
  'verification.failed',
  'verification.expired',
  'verification.canceled',
  'form.created',
  'form.updated',
  'form.live_changed',
  'membership.created',
  'membership.removed',
] as const;
export const webhookEventTypeSchema = z.enum(webhookEventTypes);
export type WebhookEventType = z.infer<typeof webhookEventTypeSchema>;

/** `["*"]` in an endpoint's event types: every type, those added later included. */
export const ALL_WEBHOOK_EVENTS = '*';

/** Endpoints an account may have at once (POST answers 400 past it). */
export const MAX_WEBHOOK_ENDPOINTS = 20;

/** The longest overlap of a rotation, during which the previous secret keeps signing too: 7 days. */
export const MAX_WEBHOOK_SECRET_OVERLAP_HOURS = 168;

export const MAX_WEBHOOK_URL_LENGTH = 2048;

export const webhookTexts = {
  tooMany: `An account can have at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints. Delete one you no longer use first.`,
  badUrl: 'Enter a full URL starting with https://.',
  httpsOnly: 'Use an https:// URL: events are only sent over an encrypted connection.',
  credentialsInUrl: 'Leave the user name and password out of the URL; check the signature instead.',
  privateAddress:
    'This address points to a private network, this machine or a cloud metadata service; webhooks can only be sent to public addresses.',
  unresolvable: 'We could not find this host. Check the address and try again.',
  allOrSome: 'Choose either all events ("*") or a list of event types, not both.',
  repeated: 'Each event type may be named once.',
} as const;

const webhookUrlSchema = z
  .string()
  .trim()
  .min(1)
  .max(MAX_WEBHOOK_URL_LENGTH)
  .refine((value) => {
    if (!URL.canParse(value)) return false;
    const { protocol, hostname } = new URL(value);
    return (protocol === 'https:' || protocol === 'http:') && hostname !== '';
  }, webhookTexts.badUrl);

const descriptionSchema = z
  .string()
  .trim()
  .max(500)
  .refine((value) => !hasLineBreakOrControl(value), singleLineTexts.controlCharacters);

/** The types an endpoint wants: a list of known types, each once, or `["*"]` for all. */
export const webhookEventTypesSelectionSchema = z
  .array(z.union([webhookEventTypeSchema, z.literal(ALL_WEBHOOK_EVENTS)]))
  .min(1)
  .max(webhookEventTypes.length)
  .refine((types) => !types.includes(ALL_WEBHOOK_EVENTS) || types.length === 1, webhookTexts.allOrSome)
  .refine((types) => new Set(types).size === types.length, webhookTexts.repeated);
export type WebhookEventTypesSelection = z.infer<typeof webhookEventTypesSelectionSchema>;

export const webhookEndpointSchema = z.object({
  id: z.number().int(),
  account: z.number().int(),
  url: z.string(),
  description: z.string(),
  eventTypes: z.array(z.string()),
  enabled: z.boolean(),
  /** ISO 8601. */
  created: z.string(),
  /** `whsec_` and the secret's first 4 characters, then `…`: enough to tell secrets apart, never to sign. */
  secretPreview: z.string(),
  /** When the endpoint was last disabled (by an owner, or after days of failed deliveries); null while enabled. */
  disabledAt: z.string().nullable(),
});
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;

export const createWebhookEndpointRequestSchema = z.object({
  account: z.number().int().positive().max(MAX_INT_ID),
  url: webhookUrlSchema,
  description: descriptionSchema.default(''),
  eventTypes: webhookEventTypesSelectionSchema,
  enabled: z.boolean().default(true),
});
export type CreateWebhookEndpointRequest = z.input<typeof createWebhookEndpointRequestSchema>;

/** PATCH /api/webhook-endpoints/{id}: the fields to change. */
export const updateWebhookEndpointRequestSchema = z
  .object({
    url: webhookUrlSchema,
    description: descriptionSchema,
    eventTypes: webhookEventTypesSelectionSchema,
    enabled: z.boolean(),
  })
  .partial()
  .strict();
export type UpdateWebhookEndpointRequest = z.infer<typeof updateWebhookEndpointRequestSchema>;

/** GET /api/webhook-endpoints?account= → oldest first. */
export const webhookEndpointListQuerySchema = z.object({
  account: z.coerce.number().int().positive().max(MAX_INT_ID),
});
export const webhookEndpointListSchema = z.object({ results: z.array(webhookEndpointSchema) });
export type WebhookEndpointList = z.infer<typeof webhookEndpointListSchema>;

/** GET /api/webhook-endpoints/{id}/secret (owners): the current signing secret, `whsec_` + base64 of 24 bytes. */
export const webhookSecretSchema = z.object({ secret: z.string() });
export type WebhookSecret = z.infer<typeof webhookSecretSchema>;

/**
 * POST /api/webhook-endpoints/{id}/rotate-secret → the endpoint: a new secret signs from now on; the previous one
 * signs too for `overlapHours` (0: stops at once), so receivers can switch without losing a delivery.
 */
export const rotateWebhookSecretRequestSchema = z
  .object({
    overlapHours: z.number().int().min(0).max(MAX_WEBHOOK_SECRET_OVERLAP_HOURS),
  })
  .strict();
export type RotateWebhookSecretRequest = z.infer<typeof rotateWebhookSecretRequestSchema>;
