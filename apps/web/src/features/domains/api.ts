import { queryOptions, useMutation } from '@tanstack/react-query';
import { type AccountDomain, domainEndpoints } from '@veriform/contracts';
import { accountScope } from '../../lib/account-keys';
import type { ApiClient } from '../../lib/api-client';
import { useServices } from '../../lib/services';

/**
 * One place per company-domain endpoint (issue #33 item 10): the fetcher, then its query options or mutation hook. The
 * endpoints themselves (method, path, schemas) are the contract's `domainEndpoints`, which the server registers. The
 * key starts with the account scope, so switching accounts reloads it.
 */
export const domainKeys = {
  list: (accountId: number) => [...accountScope, accountId, 'domains'] as const,
};

export function fetchDomains(api: ApiClient, accountId: number, signal?: AbortSignal) {
  return api.call(domainEndpoints.list, { params: { id: accountId }, signal });
}

export function domainsQueryOptions(api: ApiClient, accountId: number) {
  return queryOptions({
    queryKey: domainKeys.list(accountId),
    queryFn: ({ signal }) => fetchDomains(api, accountId, signal),
    select: (data) => data.results,
  });
}

/** An answer of one domain replaces it in the cached list (or adds it). */
function useStoreDomain(accountId: number) {
  const { queryClient } = useServices();
  return (domain: AccountDomain) =>
    queryClient.setQueryData(domainKeys.list(accountId), (list: { results: AccountDomain[] } | undefined) => {
      if (!list) return list;
      const known = list.results.some((d) => d.id === domain.id);
      return {
        results: known
          ? list.results.map((d) => (d.id === domain.id ? domain : d))
          : [...list.results, domain],
      };
    });
}

export function addDomain(api: ApiClient, accountId: number, domain: string): Promise<AccountDomain> {
  return api.call(domainEndpoints.create, { params: { id: accountId }, body: { domain } });
}

export function useAddDomainMutation(accountId: number) {
  const { api } = useServices();
  const store = useStoreDomain(accountId);
  return useMutation({ mutationFn: (domain: string) => addDomain(api, accountId, domain), onSuccess: store });
}

export function checkDomain(api: ApiClient, accountId: number, domainId: number): Promise<AccountDomain> {
  return api.call(domainEndpoints.check, { params: { id: accountId, domainId }, body: {} });
}

export function useCheckDomainMutation(accountId: number) {
  const { api, queryClient } = useServices();
  const store = useStoreDomain(accountId);
  return useMutation({
    mutationFn: (domainId: number) => checkDomain(api, accountId, domainId),
    onSuccess: store,
    // A failed check is noted on the domain too (its last result): the list reads it again.
    onError: () => queryClient.invalidateQueries({ queryKey: domainKeys.list(accountId) }),
  });
}

export function removeDomain(api: ApiClient, accountId: number, domainId: number): Promise<unknown> {
  return api.call(domainEndpoints.remove, { params: { id: accountId, domainId } });
}

export function useRemoveDomainMutation(accountId: number) {
  const { api, queryClient } = useServices();
  return useMutation({
    mutationFn: (domainId: number) => removeDomain(api, accountId, domainId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: domainKeys.list(accountId) }),
  });
}
