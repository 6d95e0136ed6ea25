import { queryOptions, useMutation } from '@tanstack/react-query';
import {
  can,
  type ExtendPrivacyRequestRequest,
  type FilePrivacyRequestRequest,
  fillPath,
  type Membership,
  type PrivacyRequest,
  type PrivacyRequestSearch,
  privacyRequestEndpoints,
  privacyRequestSearchSchema,
} from '@veriform/contracts';
import { accountScope } from '../../lib/account-keys';
import type { ApiClient } from '../../lib/api-client';
import { useServices } from '../../lib/services';

/**
 * Data-subject requests (issue #37 item 3): the fetchers, their query options and the mutations. The endpoints
 * (method, path, schemas, who may call them) are the contract's `privacyRequestEndpoints`. Keys start with the account
 * scope, so switching accounts reloads.
 */
export const privacyRequestKeys = {
  all: (accountId: number) => [...accountScope, accountId, 'privacy-requests'] as const,
  list: (accountId: number, search: PrivacyRequestSearch) =>
    [...privacyRequestKeys.all(accountId), 'list', search] as const,
  detail: (accountId: number, id: string) => [...privacyRequestKeys.all(accountId), 'detail', id] as const,
};

/** Who sees Settings → Privacy requests: the owners, mirroring the capability the server's routes declare. */
export function canManagePrivacyRequests(membership: Membership | null): boolean {
  return membership !== null && can(membership, 'readPrivacyRequests');
}

/** The URL's search: every bad value falls back (the contract's schema), defaults left out of the URL. */
export const validatePrivacyRequestSearch = (search: Record<string, unknown>): PrivacyRequestSearch =>
  privacyRequestSearchSchema.parse(search);
export const privacyRequestSearchDefaults = privacyRequestSearchSchema.parse({});

/** A path id the API could know (`dsr_` and base64url); anything else is not found without asking. */
export function isPrivacyRequestId(value: string): boolean {
  return /^dsr_[A-Za-z0-9_-]{1,60}$/.test(value);
}

export function privacyRequestListQueryOptions(
  api: ApiClient,
  accountId: number,
  search: PrivacyRequestSearch,
) {
  return queryOptions({
    queryKey: privacyRequestKeys.list(accountId, search),
    queryFn: ({ signal }) =>
      api.call(privacyRequestEndpoints.list, { query: { account: accountId, ...search }, signal }),
  });
}

/** How often a running request is read again, until it is answered. */
export const RUNNING_POLL_MS = 2000;

export function privacyRequestQueryOptions(api: ApiClient, accountId: number, id: string) {
  return queryOptions({
    queryKey: privacyRequestKeys.detail(accountId, id),
    queryFn: ({ signal }) => api.call(privacyRequestEndpoints.get, { params: { id }, signal }),
    // A job carries it out: while it runs, its page follows it until the answer is there.
    refetchInterval: (query) => (query.state.data?.status === 'running' ? RUNNING_POLL_MS : false),
  });
}

/** An answered access request's ZIP: a plain download (the server answers it as an attachment), so a link. */
export function privacyRequestBundleUrl(id: string): string {
  return fillPath(privacyRequestEndpoints.bundle.path, { id });
}

/** After any change: the lists (a status moves a row between filters) and the request's page are read again. */
function useRefreshPrivacyRequests(accountId: number) {
  const { queryClient } = useServices();
  return (request?: PrivacyRequest) => {
    if (request) queryClient.setQueryData(privacyRequestKeys.detail(accountId, request.id), request);
    return queryClient.invalidateQueries({ queryKey: privacyRequestKeys.all(accountId) });
  };
}

export function useFilePrivacyRequestMutation(accountId: number) {
  const { api } = useServices();
  const refresh = useRefreshPrivacyRequests(accountId);
  return useMutation({
    mutationFn: (body: FilePrivacyRequestRequest): Promise<PrivacyRequest> =>
      api.call(privacyRequestEndpoints.file, { query: { account: accountId }, body }),
    onSuccess: (request) => refresh(request),
  });
}

export function useCarryOutPrivacyRequestMutation(accountId: number) {
  const { api } = useServices();
  const refresh = useRefreshPrivacyRequests(accountId);
  return useMutation({
    mutationFn: (id: string): Promise<PrivacyRequest> =>
      api.call(privacyRequestEndpoints.carryOut, { params: { id }, body: {} }),
    onSuccess: (request) => refresh(request),
    // A 409 (carried out elsewhere meanwhile) leaves the page stale otherwise.
    onError: () => refresh(),
  });
}

export function useExtendPrivacyRequestMutation(accountId: number, id: string) {
  const { api } = useServices();
  const refresh = useRefreshPrivacyRequests(accountId);
  return useMutation({
    mutationFn: (body: ExtendPrivacyRequestRequest): Promise<PrivacyRequest> =>
      api.call(privacyRequestEndpoints.extend, { params: { id }, body }),
    onSuccess: (request) => refresh(request),
  });
}
