import { queryOptions, useMutation } from '@tanstack/react-query';
import {
  authSessionEndpoints,
  passkeyEndpoints,
  type RecoveryCodesResponse,
  type SecondFactorProof,
  secondFactorEndpoints,
} from '@veriform/contracts';
import type { ApiClient } from '../../lib/api-client';
import { useServices } from '../../lib/services';
import { registerPasskey } from '../../lib/webauthn';

/**
 * My Account › Security (issue #38): the person's second factors, passkeys and sessions. One place per endpoint: the
 * query options or the mutation hook; each change refreshes what it changes.
 */

export const secondFactorsQueryKey = ['auth', 'mfa'] as const;
export const passkeysQueryKey = ['auth', 'passkeys'] as const;
export const authSessionsQueryKey = ['auth', 'sessions'] as const;

export function secondFactorsQueryOptions(api: ApiClient) {
  return queryOptions({
    queryKey: secondFactorsQueryKey,
    queryFn: ({ signal }) => api.call(secondFactorEndpoints.status, { signal }),
  });
}

export function passkeysQueryOptions(api: ApiClient) {
  return queryOptions({
    queryKey: passkeysQueryKey,
    queryFn: ({ signal }) => api.call(passkeyEndpoints.list, { signal }),
  });
}

export function authSessionsQueryOptions(api: ApiClient) {
  return queryOptions({
    queryKey: authSessionsQueryKey,
    queryFn: ({ signal }) => api.call(authSessionEndpoints.list, { signal }),
  });
}

/** A second factor added or removed: the status, the passkeys and the sessions (a removal ends the others). */
function useRefreshSecurity() {
  const { queryClient } = useServices();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: secondFactorsQueryKey }),
      queryClient.invalidateQueries({ queryKey: passkeysQueryKey }),
      queryClient.invalidateQueries({ queryKey: authSessionsQueryKey }),
    ]);
}

export function useStartTotpMutation() {
  const { api } = useServices();
  return useMutation({ mutationFn: () => api.call(secondFactorEndpoints.startTotp, {}) });
}

export function useConfirmTotpMutation() {
  const { api } = useServices();
  const refresh = useRefreshSecurity();
  return useMutation({
    mutationFn: (code: string): Promise<RecoveryCodesResponse> =>
      api.call(secondFactorEndpoints.confirmTotp, { body: { code } }),
    onSuccess: () => void refresh(),
  });
}

export function useRemoveTotpMutation() {
  const { api } = useServices();
  const refresh = useRefreshSecurity();
  return useMutation({
    mutationFn: () => api.call(secondFactorEndpoints.removeTotp, {}),
    onSuccess: () => void refresh(),
  });
}

export function useRegenerateRecoveryCodesMutation() {
  const { api } = useServices();
  const refresh = useRefreshSecurity();
  return useMutation({
    mutationFn: () => api.call(secondFactorEndpoints.regenerateRecoveryCodes, {}),
    onSuccess: () => void refresh(),
  });
}

export function useAddPasskeyMutation() {
  const { api } = useServices();
  const refresh = useRefreshSecurity();
  return useMutation({
    mutationFn: (name: string) => registerPasskey(api, name),
    onSuccess: () => void refresh(),
  });
}

export function useRemovePasskeyMutation() {
  const { api } = useServices();
  const refresh = useRefreshSecurity();
  return useMutation({
    mutationFn: (id: number) => api.call(passkeyEndpoints.remove, { params: { id } }),
    onSuccess: () => void refresh(),
  });
}

export function useEndSessionMutation() {
  const { api, queryClient } = useServices();
  return useMutation({
    mutationFn: (id: string) => api.call(authSessionEndpoints.end, { params: { id } }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: authSessionsQueryKey }),
  });
}

export function useEndOtherSessionsMutation() {
  const { api, queryClient } = useServices();
  return useMutation({
    mutationFn: () => api.call(authSessionEndpoints.endOthers, {}),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: authSessionsQueryKey }),
  });
}

/** Renews the session's proof (10 minutes), so that the call that asked for it can be made again. */
export function stepUp(api: ApiClient, proof: SecondFactorProof): Promise<{ lastProofAt: string }> {
  return api.call(secondFactorEndpoints.stepUp, { body: proof });
}
