import { infiniteQueryOptions, queryOptions, useMutation } from '@tanstack/react-query';
import {
  type CreateWebhookEndpointRequest,
  can,
  type Membership,
  type ReplayFailedWebhooksRequest,
  type UpdateWebhookEndpointRequest,
  type WebhookDeliveryList,
  type WebhookEndpoint,
  webhookEndpoints,
} from '@veriform/contracts';
import { accountScope } from '../../lib/account-keys';
import type { ApiClient } from '../../lib/api-client';
import { useServices } from '../../lib/services';

/**
 * One place per webhook endpoint call (issue #17; owners only): the fetcher, then its query options or mutation hook.
 * The calls themselves (method, path, schemas) are the contract's `webhookEndpoints`, which the server registers. Keys
 * start with the account scope, so switching accounts reloads them. The signing secret is never cached.
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

export function fetchWebhookEndpoints(api: ApiClient, accountId: number, signal?: AbortSignal) {
  return api.call(webhookEndpoints.list, { query: { account: accountId }, signal });
}

export function webhookEndpointsQueryOptions(api: ApiClient, accountId: number) {
  return queryOptions({
    queryKey: webhookKeys.list(accountId),
    queryFn: ({ signal }) => fetchWebhookEndpoints(api, accountId, signal),
    select: (data) => data.results,
  });
}

export function fetchWebhookEndpoint(api: ApiClient, id: number, signal?: AbortSignal) {
  return api.call(webhookEndpoints.get, { params: { id }, signal });
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

export function fetchWebhookDeliveries(
  api: ApiClient,
  id: number,
  startingAfter: string | undefined,
  signal?: AbortSignal,
) {
  return api.call(webhookEndpoints.deliveries, {
    params: { id },
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

export function createWebhookEndpoint(api: ApiClient, body: CreateWebhookEndpointRequest) {
  return api.call(webhookEndpoints.create, { body });
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

export function updateWebhookEndpoint(api: ApiClient, id: number, body: UpdateWebhookEndpointRequest) {
  return api.call(webhookEndpoints.update, { params: { id }, body });
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

export function deleteWebhookEndpoint(api: ApiClient, id: number) {
  return api.call(webhookEndpoints.remove, { params: { id } });
}

export function useDeleteWebhookEndpointMutation(accountId: number) {
  const { api, queryClient } = useServices();
  return useMutation({
    mutationFn: (id: number) => deleteWebhookEndpoint(api, id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhookKeys.list(accountId) }),
  });
}

export function fetchWebhookSecret(api: ApiClient, id: number) {
  return api.call(webhookEndpoints.secret, { params: { id } });
}

export function useRevealWebhookSecretMutation() {
  const { api } = useServices();
  return useMutation({ mutationFn: (id: number) => fetchWebhookSecret(api, id), gcTime: 0 });
}

export function rotateWebhookSecret(api: ApiClient, id: number, overlapHours: number) {
  return api.call(webhookEndpoints.rotateSecret, { params: { id }, body: { overlapHours } });
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

export function sendWebhookTest(api: ApiClient, id: number) {
  return api.call(webhookEndpoints.sendTest, { params: { id } });
}

export function useSendWebhookTestMutation(accountId: number) {
  const { api, queryClient } = useServices();
  return useMutation({
    mutationFn: (id: number) => sendWebhookTest(api, id),
    onSuccess: (_delivery, id) =>
      queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(accountId, id) }),
  });
}

export function replayWebhookEvent(api: ApiClient, eventId: string, endpointId: number) {
  return api.call(webhookEndpoints.replayEvent, { params: { id: eventId }, body: { endpointId } });
}

export function useReplayWebhookEventMutation(accountId: number, endpointId: number) {
  const { api, queryClient } = useServices();
  return useMutation({
    mutationFn: (eventId: string) => replayWebhookEvent(api, eventId, endpointId),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(accountId, endpointId) }),
  });
}

export function replayFailedWebhooks(api: ApiClient, id: number, body: ReplayFailedWebhooksRequest) {
  return api.call(webhookEndpoints.replayFailed, { params: { id }, body });
}

export function useReplayFailedWebhooksMutation(accountId: number, endpointId: number) {
  const { api, queryClient } = useServices();
  return useMutation({
    mutationFn: (body: ReplayFailedWebhooksRequest) => replayFailedWebhooks(api, endpointId, body),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(accountId, endpointId) }),
  });
}
