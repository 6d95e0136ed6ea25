import { queryOptions, useMutation } from '@tanstack/react-query';
import {
  type RecordRevocationRequest,
  type Revocation,
  type RevocationSearch,
  revocationEndpoints,
  revocationSearchSchema,
} from '@veriform/contracts';
import { accountScope } from '../../lib/account-keys';
import type { ApiClient } from '../../lib/api-client';
import { useServices } from '../../lib/services';

/** The channels' words, for other features that show a revocation (a verification's detail). */
export { revocationChannelLabels } from './labels';

/**
 * Revocations of consent (issue #35): the fetcher, its query options and the mutations. The endpoints (method, path,
 * schemas) are the contract's `revocationEndpoints`. Keys start with the account scope, so switching accounts reloads.
 */
export const revocationKeys = {
  all: (accountId: number) => [...accountScope, accountId, 'revocations'] as const,
  list: (accountId: number, search: RevocationSearch) => [...revocationKeys.all(accountId), search] as const,
  counts: (accountId: number) => [...revocationKeys.all(accountId), 'counts'] as const,
};

/** The URL's search: every bad value falls back (the contract's schema), defaults left out of the URL. */
export const validateRevocationSearch = (search: Record<string, unknown>): RevocationSearch =>
  revocationSearchSchema.parse(search);
export const revocationSearchDefaults = revocationSearchSchema.parse({});

export function revocationListQueryOptions(api: ApiClient, accountId: number, search: RevocationSearch) {
  return queryOptions({
    queryKey: revocationKeys.list(accountId, search),
    queryFn: ({ signal }) =>
      api.call(revocationEndpoints.list, { query: { account: accountId, ...search }, signal }),
  });
}

/** The dashboard's counts; under the same key as the lists, so any change reads them again too. */
export function revocationCountsQueryOptions(api: ApiClient, accountId: number) {
  return queryOptions({
    queryKey: revocationKeys.counts(accountId),
    queryFn: ({ signal }) => api.call(revocationEndpoints.counts, { query: { account: accountId }, signal }),
  });
}

/** After any change the lists read again (a status moves a row between filters). */
function useRefreshRevocations(accountId: number) {
  const { queryClient } = useServices();
  return () => queryClient.invalidateQueries({ queryKey: revocationKeys.all(accountId) });
}

export function useRecordRevocationMutation(accountId: number) {
  const { api } = useServices();
  const refresh = useRefreshRevocations(accountId);
  return useMutation({
    mutationFn: (body: RecordRevocationRequest): Promise<Revocation> =>
      api.call(revocationEndpoints.record, { query: { account: accountId }, body }),
    onSuccess: refresh,
  });
}

export function useAcknowledgeRevocationMutation(accountId: number) {
  const { api } = useServices();
  const refresh = useRefreshRevocations(accountId);
  return useMutation({
    mutationFn: (id: string): Promise<Revocation> =>
      api.call(revocationEndpoints.acknowledge, { params: { id } }),
    onSettled: refresh,
  });
}

export function useDecideRevocationMutation(accountId: number) {
  const { api } = useServices();
  const refresh = useRefreshRevocations(accountId);
  return useMutation({
    mutationFn: ({ id, isRevocation }: { id: string; isRevocation: boolean }): Promise<Revocation> =>
      api.call(revocationEndpoints.decide, { params: { id }, body: { isRevocation } }),
    onSettled: refresh,
  });
}
