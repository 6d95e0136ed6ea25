import { queryOptions, useMutation } from '@tanstack/react-query';
import {
  apiKeyEndpoints,
  type CreateApiKeyRequest,
  type CreatedApiKey,
  can,
  type Membership,
} from '@veriform/contracts';
import { accountScope } from '../../lib/account-keys';
import type { ApiClient } from '../../lib/api-client';
import { useServices } from '../../lib/services';

/**
 * One place per API-key endpoint (issue #15; owners only): the fetcher, then its query options or mutation hook. The
 * endpoints themselves (method, path, schemas) are the contract's `apiKeyEndpoints`, which the server registers. The
 * key starts with the account scope, so switching accounts reloads it.
 */
export const apiKeyKeys = {
  list: (accountId: number) => [...accountScope, accountId, 'api-keys'] as const,
};

/** Who sees Settings → API keys: the owners, mirroring the capability the server's routes declare (`manageCompany`). */
export function canManageApiKeys(membership: Membership | null): boolean {
  return membership !== null && can(membership, 'manageCompany');
}

export function fetchApiKeys(api: ApiClient, accountId: number, signal?: AbortSignal) {
  return api.call(apiKeyEndpoints.list, { query: { account: accountId }, signal });
}

export function apiKeysQueryOptions(api: ApiClient, accountId: number) {
  return queryOptions({
    queryKey: apiKeyKeys.list(accountId),
    queryFn: ({ signal }) => fetchApiKeys(api, accountId, signal),
    select: (data) => data.results,
  });
}

export function createApiKey(api: ApiClient, body: CreateApiKeyRequest): Promise<CreatedApiKey> {
  return api.call(apiKeyEndpoints.create, { body });
}

export function useCreateApiKeyMutation(accountId: number) {
  const { api, queryClient } = useServices();
  return useMutation({
    mutationFn: (body: Omit<CreateApiKeyRequest, 'account'>) =>
      createApiKey(api, { ...body, account: accountId }),
    // The answer holds the secret: it goes to the caller only. The list is read again (without it) rather than
    // patched from the answer, and the finished mutation leaves the mutation cache as soon as nothing observes it.
    gcTime: 0,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.list(accountId) }),
  });
}

export function revokeApiKey(api: ApiClient, id: number): Promise<unknown> {
  return api.call(apiKeyEndpoints.revoke, { params: { id } });
}

export function useRevokeApiKeyMutation(accountId: number) {
  const { api, queryClient } = useServices();
  return useMutation({
    mutationFn: (id: number) => revokeApiKey(api, id),
    // Revoked meanwhile by another owner or not: either way the list is read again.
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.list(accountId) }),
  });
}
