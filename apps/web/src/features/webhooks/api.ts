import { infiniteQueryOptions, queryOptions, useMutation } from '@tanstack/react-query';
import {
  type CreateWebhookEndpointRequest,
  can,
  type Membership,
  type ReplayFailedWebhooksRequest,
  type UpdateWebhookEndpointRequest,
  type WebhookDeliveryList,
  type WebhookEndpoint,
  webhookDeliveryListSchema,
  webhookDeliverySchema,
  webhookEndpointListSchema,
  webhookEndpointSchema,
  webhookReplayQueuedSchema,
  webhookSecretSchema,
} from '@veriform/contracts';
import { accountScope } from '../../lib/account-keys';
import { type ApiClient, noContent } from '../../lib/api-client';
import { useServices } from '../../lib/services';

/**
 * One place per webhook endpoint call (issue #17; owners only): the fetcher, then its query options or mutation hook.
 * Keys start with the account scope, so switching accounts reloads them. The signing secret is never cached.
 */
export const webhookKeys = {
  all: (accountId: number) => [...accountScope, accountId, 'webhook-endpoints'] as const,
  list: (accountId: number) => [...webhookKeys.all(accountId), 'list'] as const,
  detail: (accountId: number, id: number) => [...webhookKeys.all(accountId), 'detail', id] as const,
  deliveries: (accountId: number, id: number) => [...webhookKeys.all(accountId), 'deliveries', id] as const,
};

/** Who sees Settings → Webhooks: the owners, mirroring the capability the server's routes declare. */
export function canManageWebhooks(membership: Membership | null): boolean {
  return membership !== null && can(membership, 'manageCompany');
}

// GET /api/webhook-endpoints?account={id} — oldest first
export function fetchWebhookEndpoints(api: ApiClient, accountId: number, signal?: AbortSignal) {
  return api.get('/api/webhook-endpoints', {
    schema: webhookEndpointListSchema,
    query: { account: accountId },
    signal,
  });
}

export function webhookEndpointsQueryOptions(api: ApiClient, accountId: number) {
  return queryOptions({
    queryKey: webhookKeys.list(accountId),
    queryFn: ({ signal }) => fetchWebhookEndpoints(api, accountId, signal),
    select: (data) => data.results,
  });
}

// GET /api/webhook-endpoints/{id} — another account's answers 404 like an unknown one
export function fetchWebhookEndpoint(api: ApiClient, id: number, signal?: AbortSignal) {
  return api.get(`/api/webhook-endpoints/${id}`, { schema: webhookEndpointSchema, signal });
}

export function webhookEndpointQueryOptions(api: ApiClient, accountId: number, id: number) {
  return queryOptions({
    queryKey: webhookKeys.detail(accountId, id),
    queryFn: ({ signal }) => fetchWebhookEndpoint(api, id, signal),
  });
}

export const DELIVERIES_PAGE_SIZE = 20;

/**
 * Deliveries change on the server while no one watches (events, retries, replays from elsewhere), so they are never
 * taken as current: every visit to the endpoint's page reads them again (the app's 30 s default showed the list from
 * the last visit). Only a read this recent (the route loader's, just before the page mounts) is not repeated.
 */
export const DELIVERIES_JUST_READ_MS = 1000;

// GET /api/webhook-endpoints/{id}/deliveries — newest first; the next page starts after the last event id shown
export function fetchWebhookDeliveries(
  api: ApiClient,
  id: number,
  startingAfter: string | undefined,
  signal?: AbortSignal,
) {
  return api.get(`/api/webhook-endpoints/${id}/deliveries`, {
    schema: webhookDeliveryListSchema,
    query: { startingAfter, limit: DELIVERIES_PAGE_SIZE },
    signal,
  });
}

export function webhookDeliveriesQueryOptions(api: ApiClient, accountId: number, id: number) {
  return infiniteQueryOptions({
    queryKey: webhookKeys.deliveries(accountId, id),
    queryFn: ({ signal, pageParam }) => fetchWebhookDeliveries(api, id, pageParam, signal),
    staleTime: 0,
    refetchOnMount: (query) => Date.now() - query.state.dataUpdatedAt >= DELIVERIES_JUST_READ_MS,
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last: WebhookDeliveryList) =>
      last.hasMore ? last.results[last.results.length - 1]?.eventId : undefined,
  });
}

/** After a change to one endpoint: the list, its page and its deliveries are read again. */
function useInvalidateEndpoints(accountId: number) {
  const { queryClient } = useServices();
  return () => queryClient.invalidateQueries({ queryKey: webhookKeys.all(accountId) });
}

// POST /api/webhook-endpoints — {account, url, description, eventTypes, enabled} → 201 endpoint
export function createWebhookEndpoint(api: ApiClient, body: CreateWebhookEndpointRequest) {
  return api.post('/api/webhook-endpoints', { schema: webhookEndpointSchema, body });
}

export function useCreateWebhookEndpointMutation(accountId: number) {
  const { api } = useServices();
  const invalidate = useInvalidateEndpoints(accountId);
  return useMutation({
    mutationFn: (body: Omit<CreateWebhookEndpointRequest, 'account'>) =>
      createWebhookEndpoint(api, { ...body, account: accountId }),
    onSuccess: invalidate,
  });
}

// PATCH /api/webhook-endpoints/{id} — the fields to change → the endpoint
export function updateWebhookEndpoint(api: ApiClient, id: number, body: UpdateWebhookEndpointRequest) {
  return api.patch(`/api/webhook-endpoints/${id}`, { schema: webhookEndpointSchema, body });
}

export function useUpdateWebhookEndpointMutation(accountId: number) {
  const { api, queryClient } = useServices();
  const invalidate = useInvalidateEndpoints(accountId);
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: UpdateWebhookEndpointRequest }) =>
      updateWebhookEndpoint(api, id, body),
    onSuccess: (endpoint: WebhookEndpoint) => {
      queryClient.setQueryData(webhookKeys.detail(accountId, endpoint.id), endpoint);
      return invalidate();
    },
  });
}

// DELETE /api/webhook-endpoints/{id} — 204; nothing more is sent to it
export function deleteWebhookEndpoint(api: ApiClient, id: number) {
  return api.delete(`/api/webhook-endpoints/${id}`, { schema: noContent });
}

export function useDeleteWebhookEndpointMutation(accountId: number) {
  const { api, queryClient } = useServices();
  return useMutation({
    mutationFn: (id: number) => deleteWebhookEndpoint(api, id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhookKeys.list(accountId) }),
  });
}

// GET /api/webhook-endpoints/{id}/secret — the signing secret, read on demand (and audited); never cached
export function fetchWebhookSecret(api: ApiClient, id: number) {
  return api.get(`/api/webhook-endpoints/${id}/secret`, { schema: webhookSecretSchema });
}

export function useRevealWebhookSecretMutation() {
  const { api } = useServices();
  return useMutation({ mutationFn: (id: number) => fetchWebhookSecret(api, id), gcTime: 0 });
}

// POST /api/webhook-endpoints/{id}/rotate-secret — {overlapHours} → the endpoint with its new preview
export function rotateWebhookSecret(api: ApiClient, id: number, overlapHours: number) {
  return api.post(`/api/webhook-endpoints/${id}/rotate-secret`, {
    schema: webhookEndpointSchema,
    body: { overlapHours },
  });
}

export function useRotateWebhookSecretMutation(accountId: number) {
  const { api } = useServices();
  const invalidate = useInvalidateEndpoints(accountId);
  return useMutation({
    mutationFn: ({ id, overlapHours }: { id: number; overlapHours: number }) =>
      rotateWebhookSecret(api, id, overlapHours),
    onSuccess: invalidate,
  });
}

// POST /api/webhook-endpoints/{id}/send-test — 202 with the queued delivery of a `webhook.test` event
export function sendWebhookTest(api: ApiClient, id: number) {
  return api.post(`/api/webhook-endpoints/${id}/send-test`, { schema: webhookDeliverySchema });
}

export function useSendWebhookTestMutation(accountId: number) {
  const { api, queryClient } = useServices();
  return useMutation({
    mutationFn: (id: number) => sendWebhookTest(api, id),
    onSuccess: (_delivery, id) =>
      queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(accountId, id) }),
  });
}

// POST /api/webhook-events/{eventId}/replay — {endpointId} → 202: the same event (same webhook-id) again
export function replayWebhookEvent(api: ApiClient, eventId: string, endpointId: number) {
  return api.post(`/api/webhook-events/${encodeURIComponent(eventId)}/replay`, {
    schema: noContent,
    body: { endpointId },
  });
}

export function useReplayWebhookEventMutation(accountId: number, endpointId: number) {
  const { api, queryClient } = useServices();
  return useMutation({
    mutationFn: (eventId: string) => replayWebhookEvent(api, eventId, endpointId),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(accountId, endpointId) }),
  });
}

// POST /api/webhook-endpoints/{id}/replay-failed — {since, until} → 202 {queued}
export function replayFailedWebhooks(api: ApiClient, id: number, body: ReplayFailedWebhooksRequest) {
  return api.post(`/api/webhook-endpoints/${id}/replay-failed`, { schema: webhookReplayQueuedSchema, body });
}

export function useReplayFailedWebhooksMutation(accountId: number, endpointId: number) {
  const { api, queryClient } = useServices();
  return useMutation({
    mutationFn: (body: ReplayFailedWebhooksRequest) => replayFailedWebhooks(api, endpointId, body),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(accountId, endpointId) }),
  });
}
