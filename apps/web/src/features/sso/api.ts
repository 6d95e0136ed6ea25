import { queryOptions, useMutation } from '@tanstack/react-query';
import {
  can,
  type Membership,
  type PutSsoRequest,
  type SsoSettingsResponse,
  ssoEndpoints,
} from '@veriform/contracts';
import { accountScope } from '../../lib/account-keys';
import type { ApiClient } from '../../lib/api-client';
import { useServices } from '../../lib/services';

/**
 * Single sign-on's settings (issue #38 item 4): the fetcher, its query options and the save's mutation. The endpoints
 * (method, path, schemas) are the contract's `ssoEndpoints`; saving asks a step-up, which the API client handles.
 */
export const ssoKeys = {
  settings: (accountId: number) => [...accountScope, accountId, 'sso'] as const,
};

/** Owners connect the provider (the server asks `manageCompany`). */
export const canManageSso = (membership: Membership | null) =>
  membership !== null && can(membership, 'manageCompany');

export function fetchSsoSettings(api: ApiClient, accountId: number, signal?: AbortSignal) {
  return api.call(ssoEndpoints.get, { params: { id: accountId }, signal });
}

export function ssoSettingsQueryOptions(api: ApiClient, accountId: number) {
  return queryOptions({
    queryKey: ssoKeys.settings(accountId),
    queryFn: ({ signal }) => fetchSsoSettings(api, accountId, signal),
  });
}

export function saveSsoSettings(api: ApiClient, accountId: number, body: PutSsoRequest) {
  return api.call(ssoEndpoints.put, { params: { id: accountId }, body });
}

export function useSaveSsoMutation(accountId: number) {
  const { api, queryClient } = useServices();
  return useMutation({
    mutationFn: (body: PutSsoRequest) => saveSsoSettings(api, accountId, body),
    onSuccess: (saved: SsoSettingsResponse) => queryClient.setQueryData(ssoKeys.settings(accountId), saved),
  });
}
