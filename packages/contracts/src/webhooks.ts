import { z } from 'zod';
import { createdBySchema } from './created-by.ts';
import { isoDateTimeSchema } from './date-filters.ts';
import { accepted, anyIdParams, created, endpoint, inAccount, noContent, ok } from './endpoints.ts';
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
  'verification.delivered',
  'verification.delivery_failed',
  'form.created',
  'form.updated',
  'form.live_changed',
  'membership.created',
  'membership.removed',
  'consent.revoked',
  'revocation.acknowledged',
  'revocation.overdue',
  'consent.number_reassigned',
  'legal_hold.placed',
  'legal_hold.released',
  'privacy_request.answered',
  'privacy_request.reopened',
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
  /**
   * `failing`: disabled by us after WEBHOOK_DISABLE_AFTER_DAYS of failed deliveries; `creator_removed`: its creator
   * was removed from the team or made a member, and the owner doing it did not keep it (ADR 30); null while enabled.
   */
  disabledReason: z.enum(['manual', 'failing', 'creator_removed']).nullable(),
  /** Since when every delivery has failed (none succeeded since); null when the last one succeeded. */
  failingSince: z.string().nullable(),
  /** The owner who created it (ADR 30); null when unknown (endpoints made before this was recorded). */
  createdBy: createdBySchema,
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

// ---- Events and deliveries ---------------------------------------------------------------------------------------

/**
 * "Send test event" sends this type to one endpoint whatever types it wants; it is never sent to others and cannot be
 * subscribed to.
 */
export const WEBHOOK_TEST_EVENT_TYPE = 'webhook.test';

/** "Send test event" at most this often per endpoint and minute (429 past it). */
export const WEBHOOK_TEST_EVENTS_PER_MINUTE = 10;

/**
 * Replaying one event (POST /api/webhook-events/{id}/replay) at most this often a minute per event and endpoint, and
 * this often a minute to one endpoint whatever the events (429 past either): each replay is a request to the
 * customer's server. A range's failed events go in one call (replay-failed), which this does not limit.
 */
export const WEBHOOK_EVENT_REPLAYS_PER_MINUTE = { perEvent: 5, perEndpoint: 60 } as const;

/** Events are kept (and listed by GET /api/v1/events, and replayable) for this long. */
export const WEBHOOK_EVENT_RETENTION_DAYS = 30;

/**
 * Seconds to wait after each failed attempt: about 5 s, 5 min, 30 min, 2 h, 5 h, then 10 h six times (each ±10 %),
 * so a delivery is tried 12 times over about 2.8 days (Stripe's 3 days, Svix's early steps), then given up
 * (`failed`), and stays replayable.
 */
export const WEBHOOK_RETRY_DELAYS_SECONDS = [
  5, 300, 1800, 7200, 18000, 36000, 36000, 36000, 36000, 36000, 36000,
] as const;

/** Owners are warned after a day of nothing but failed deliveries, and the endpoint is disabled after this many. */
export const WEBHOOK_WARN_AFTER_DAYS = 1;
export const WEBHOOK_DISABLE_AFTER_DAYS = 5;

/** Settings → Webhooks, where those e-mails send the owners. */
export const WEBHOOKS_SETTINGS_PATH = '/settings/webhooks';

/**
 * An event as stored, listed by GET /api/v1/events and sent to endpoints: the body of a delivery is
 * `{type, timestamp, data}` with `webhook-id` = `id`. `data` is the object as API v1 shows it (a verification in full,
 * a form, a membership).
 */
export const webhookEventSchema = z
  .object({
    id: z.string().meta({ description: '`evt_…`: the `webhook-id` of every delivery of this event.' }),
    type: z.string(),
    created: z.string(),
    livemode: z.boolean().meta({
      description:
        'False for an event about a test object (a verification made for a test number; its `data.livemode` is false too). A `vf_test_` key lists only these, a `vf_live_` key only the others.',
    }),
    data: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'Event' });
export type WebhookEvent = z.infer<typeof webhookEventSchema>;

/**
 * A delivery: one event to one endpoint. `pending` until its first attempt, `retrying` while attempts fail and more
 * are scheduled, `failed` once they are used up (or the endpoint was disabled or deleted meanwhile), `succeeded` on
 * the first 2xx.
 */
export const webhookDeliveryStatuses = ['pending', 'succeeded', 'retrying', 'failed'] as const;
export const webhookDeliveryStatusSchema = z.enum(webhookDeliveryStatuses);
export type WebhookDeliveryStatus = z.infer<typeof webhookDeliveryStatusSchema>;

/** Why an attempt got no answer (its statusCode is null), or `redirect_not_followed` for a 3xx. */
export const webhookAttemptErrors = [
  'invalid_url',
  'blocked_address',
  'dns_failed',
  'timeout',
  'connection_failed',
  'redirect_not_followed',
] as const;

export const webhookDeliveryAttemptSchema = z.object({
  at: z.string(),
  /** The receiver's HTTP status; null when it never answered (see `error`). */
  statusCode: z.number().int().nullable(),
  latencyMs: z.number().int(),
  error: z.enum(webhookAttemptErrors).nullable(),
  /** The first 1 KB of the receiver's answer. */
  responseSnippet: z.string(),
  /** `scheduled`: the first try or a retry; `replay`: asked for by an owner; `test`: "Send test event". */
  trigger: z.enum(['scheduled', 'replay', 'test']),
});
export type WebhookDeliveryAttempt = z.infer<typeof webhookDeliveryAttemptSchema>;

export const webhookDeliverySchema = z.object({
  eventId: z.string(),
  eventType: z.string(),
  /** When the event happened. */
  created: z.string(),
  status: webhookDeliveryStatusSchema,
  /** When the next retry is due (`retrying`, or `pending` with a replay queued); null otherwise. */
  nextAttemptAt: z.string().nullable(),
  /** Oldest first. */
  attempts: z.array(webhookDeliveryAttemptSchema),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

/** GET /api/webhook-endpoints/{id}/deliveries: newest first, `startingAfter` an event id of the previous page. */
export const webhookDeliveryListQuerySchema = z.object({
  status: webhookDeliveryStatusSchema.optional(),
  startingAfter: z.string().max(64).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export const webhookDeliveryListSchema = z.object({
  results: z.array(webhookDeliverySchema),
  hasMore: z.boolean(),
});
export type WebhookDeliveryList = z.infer<typeof webhookDeliveryListSchema>;

/** POST /api/webhook-events/{eventId}/replay: sends the event again (same `webhook-id`) to one endpoint → 202. */
export const replayWebhookEventRequestSchema = z
  .object({ endpointId: z.number().int().positive().max(MAX_INT_ID) })
  .strict();
export type ReplayWebhookEventRequest = z.infer<typeof replayWebhookEventRequestSchema>;

export const webhookReplayTexts = {
  rangeOrder: 'The end of the range must come after its start.',
  rangeTooOld: `Events are kept for ${WEBHOOK_EVENT_RETENTION_DAYS} days; choose a range within them.`,
  endpointDisabled: 'This endpoint is disabled. Enable it first, then replay.',
} as const;

/**
 * POST /api/webhook-endpoints/{id}/replay-failed → 202 {queued}: every event in [since, until) that this endpoint
 * should have received and did not: its delivery failed for good, or it happened while the endpoint was disabled.
 */
export const replayFailedWebhooksRequestSchema = z
  .object({ since: isoDateTimeSchema, until: isoDateTimeSchema })
  .strict()
  .refine((range) => Date.parse(range.since) < Date.parse(range.until), {
    message: webhookReplayTexts.rangeOrder,
    path: ['until'],
  });
export type ReplayFailedWebhooksRequest = z.infer<typeof replayFailedWebhooksRequestSchema>;
export const webhookReplayQueuedSchema = z.object({ queued: z.number().int() });
export type WebhookReplayQueued = z.infer<typeof webhookReplayQueuedSchema>;

// ---- Routes ------------------------------------------------------------------------------------------------------

const ownEndpoint = { account: { from: { pathObject: 'webhookEndpoints' }, can: 'manageCompany' } } as const;
const ownEvent = { account: { from: { pathObject: 'webhookEvents' }, can: 'manageCompany' } } as const;

/** The session API's webhook routes (Settings → Webhooks, owners only). */
export const webhookEndpoints = {
  /** Oldest first. */
  list: endpoint('GET /api/webhook-endpoints', {
    query: webhookEndpointListQuerySchema,
    response: ok(webhookEndpointListSchema),
    access: inAccount('query.account', 'manageCompany'),
  }),
  /** `{account, url, description, eventTypes, enabled}` → 201 with the endpoint. */
  create: endpoint('POST /api/webhook-endpoints', {
    body: createWebhookEndpointRequestSchema,
    response: created(webhookEndpointSchema),
    access: inAccount('body.account', 'manageCompany'),
  }),
  /** One endpoint; another account's answers 404 like an unknown one. */
  get: endpoint('GET /api/webhook-endpoints/:id', {
    params: anyIdParams,
    response: ok(webhookEndpointSchema),
    access: ownEndpoint,
  }),
  /** The fields to change → the endpoint. */
  update: endpoint('PATCH /api/webhook-endpoints/:id', {
    params: anyIdParams,
    body: updateWebhookEndpointRequestSchema,
    response: ok(webhookEndpointSchema),
    access: ownEndpoint,
  }),
  /** Nothing more is sent to it. */
  remove: endpoint('DELETE /api/webhook-endpoints/:id', {
    params: anyIdParams,
    response: noContent,
    access: ownEndpoint,
  }),
  /** The signing secret, read on demand (and audited). */
  secret: endpoint('GET /api/webhook-endpoints/:id/secret', {
    params: anyIdParams,
    response: ok(webhookSecretSchema),
    access: ownEndpoint,
    stepUp: true,
  }),
  /** `{overlapHours}` → the endpoint with its new secret's preview. */
  rotateSecret: endpoint('POST /api/webhook-endpoints/:id/rotate-secret', {
    params: anyIdParams,
    body: rotateWebhookSecretRequestSchema,
    response: ok(webhookEndpointSchema),
    access: ownEndpoint,
    stepUp: true,
  }),
  /** Newest first; the next page starts after the last event id shown. */
  deliveries: endpoint('GET /api/webhook-endpoints/:id/deliveries', {
    params: anyIdParams,
    query: webhookDeliveryListQuerySchema,
    response: ok(webhookDeliveryListSchema),
    access: ownEndpoint,
  }),
  /** Queues a `webhook.test` event to this endpoint → its delivery. */
  sendTest: endpoint('POST /api/webhook-endpoints/:id/send-test', {
    params: anyIdParams,
    response: accepted(webhookDeliverySchema),
    access: ownEndpoint,
  }),
  /** Queues the range's events this endpoint did not get → how many. */
  replayFailed: endpoint('POST /api/webhook-endpoints/:id/replay-failed', {
    params: anyIdParams,
    body: replayFailedWebhooksRequestSchema,
    response: accepted(webhookReplayQueuedSchema),
    access: ownEndpoint,
  }),
  /** `{endpointId}`: the same event (same `webhook-id`) again, to that endpoint. */
  replayEvent: endpoint('POST /api/webhook-events/:id/replay', {
    params: anyIdParams,
    body: replayWebhookEventRequestSchema,
    response: accepted(webhookReplayQueuedSchema),
    access: ownEvent,
  }),
};
