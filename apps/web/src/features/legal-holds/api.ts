import { queryOptions, useMutation } from '@tanstack/react-query';
import {
  type LegalHold,
  type LegalHoldSearch,
  legalHoldEndpoints,
  type PlaceLegalHoldRequest,
} from '@veriform/contracts';
import { accountScope } from '../../lib/account-keys';
import type { ApiClient } from '../../lib/api-client';
import { useServices } from '../../lib/services';

/** Who reads and who manages holds, and the page's search params (the app shell's part: access.ts). */
export {
  canManageLegalHolds,
  canReadLegalHolds,
  legalHoldSearchDefaults,
  validateLegalHoldSearch,
} from './access';
/** The scopes' words, for other features that show a hold (a verification's detail). */
export { legalHoldScopeLabels } from './labels';

/**
 * Legal holds (issue #37 item 2): the fetcher, its query options and the mutations. The endpoints (method, path,
 * schemas, who may call them) are the contract's `legalHoldEndpoints`. Keys start with the account scope, so switching
 * accounts reloads.
 */
export const legalHoldKeys = {
  all: (accountId: number) => [...accountScope, accountId, 'legal-holds'] as const,
  list: (accountId: number, search: LegalHoldSearch) =>
    [...legalHoldKeys.all(accountId), 'list', search] as const,
};

export function legalHoldListQueryOptions(api: ApiClient, accountId: number, search: LegalHoldSearch) {
  return queryOptions({
    queryKey: legalHoldKeys.list(accountId, search),
    queryFn: ({ signal }) =>
      api.call(legalHoldEndpoints.list, { query: { account: accountId, ...search }, signal }),
  });
}

/** After any change the lists read again (a release moves a hold between filters). */
function useRefreshLegalHolds(accountId: number) {
  const { queryClient } = useServices();
  return () => queryClient.invalidateQueries({ queryKey: legalHoldKeys.all(accountId) });
}

export function usePlaceLegalHoldMutation(accountId: number) {
  const { api } = useServices();
  const refresh = useRefreshLegalHolds(accountId);
  return useMutation({
    mutationFn: (body: PlaceLegalHoldRequest): Promise<LegalHold> =>
      api.call(legalHoldEndpoints.place, { query: { account: accountId }, body }),
    onSuccess: refresh,
  });
}

export function useReleaseLegalHoldMutation(accountId: number) {
  const { api } = useServices();
  const refresh = useRefreshLegalHolds(accountId);
  return useMutation({
    mutationFn: ({ id, reason }: { id: string; reason: string }): Promise<LegalHold> =>
      api.call(legalHoldEndpoints.release, {
        params: { id },
        query: { account: accountId },
        body: { reason },
      }),
    onSettled: refresh,
  });
}
