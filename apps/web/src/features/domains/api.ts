import { queryOptions, useMutation } from '@tanstack/react-query';
import { type AccountDomain, accountDomainListSchema, accountDomainSchema } from '@veriform/contracts';
import { accountScope } from '../../lib/account-keys';
import { type ApiClient, noContent } from '../../lib/api-client';
import { useServices } from '../../lib/services';

/**
 * One place per company-domain endpoint (issue #33 item 10): the fetcher, then its query options or mutation hook. The
 * key starts with the account scope, so switching accounts reloads it.
 */
export const domainKeys = {
  list: (accountId: number) => [...accountScope, accountId, 'domains'] as const,
};

const domainsPath = (accountId: number) => `/api/accounts/${accountId}/domains`;

// GET /api/accounts/{id}/domains — any member
export function fetchDomains(api: ApiClient, accountId: number, signal?: AbortSignal) {
  return api.get(domainsPath(accountId), { schema: accountDomainListSchema, signal });
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

// POST /api/accounts/{id}/domains — {domain} (owners); 400 on `domain` when it is no domain or already listed
export function addDomain(api: ApiClient, accountId: number, domain: string): Promise<AccountDomain> {
  return api.post(domainsPath(accountId), { schema: accountDomainSchema, body: { domain } });
}

export function useAddDomainMutation(accountId: number) {
  const { api } = useServices();
  const store = useStoreDomain(accountId);
  return useMutation({ mutationFn: (domain: string) => addDomain(api, accountId, domain), onSuccess: store });
}

// POST /api/accounts/{id}/domains/{domainId}/check (owners) — the domain, verified; 400 saying what was found; 429
export function checkDomain(api: ApiClient, accountId: number, domainId: number): Promise<AccountDomain> {
  return api.post(`${domainsPath(accountId)}/${domainId}/check`, { schema: accountDomainSchema, body: {} });
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

// DELETE /api/accounts/{id}/domains/{domainId} — 204 (owners)
export function removeDomain(api: ApiClient, accountId: number, domainId: number): Promise<unknown> {
  return api.delete(`${domainsPath(accountId)}/${domainId}`, { schema: noContent });
}

export function useRemoveDomainMutation(accountId: number) {
  const { api, queryClient } = useServices();
  return useMutation({
    mutationFn: (domainId: number) => removeDomain(api, accountId, domainId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: domainKeys.list(accountId) }),
  });
}
