import { queryOptions, useMutation } from '@tanstack/react-query';
import {
  can,
  type LegalHold,
  type LegalHoldSearch,
  legalHoldEndpoints,
  legalHoldSearchSchema,
  type Membership,
  type PlaceLegalHoldRequest,
} from '@veriform/contracts';
import { accountScope } from '../../lib/account-keys';
import type { ApiClient } from '../../lib/api-client';
import { useServices } from '../../lib/services';

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

/** Who sees Settings → Legal holds: owners and members who may search the account's data (a hold names a number). */
export function canReadLegalHolds(membership: Membership | null): boolean {
  return membership !== null && can(membership, 'searchData');
}

/** Who places and releases holds: the owners (`manageEvidence`, as redaction). */
export function canManageLegalHolds(membership: Membership | null): boolean {
  return membership !== null && can(membership, 'manageEvidence');
}

/** The URL's search: every bad value falls back (the contract's schema), defaults left out of the URL. */
export const validateLegalHoldSearch = (search: Record<string, unknown>): LegalHoldSearch =>
  legalHoldSearchSchema.parse(search);
export const legalHoldSearchDefaults = legalHoldSearchSchema.parse({});

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
