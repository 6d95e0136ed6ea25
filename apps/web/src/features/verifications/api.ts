import { queryOptions } from '@tanstack/react-query';
import { type VerificationList, verificationListSchema } from '@veriform/contracts';
import type { ApiClient } from '../../lib/api-client';
import { accountScope } from '../accounts/keys';

/**
 * One place per verification endpoint (SPEC §7). Keys start with the account scope, so switching accounts reloads
 * them. Issue #6 (activity log) adds the rest of SPEC §2's search params to `VerificationListParams`.
 */
export const verificationKeys = {
  all: (accountId: number) => [...accountScope, accountId, 'verifications'] as const,
  lists: (accountId: number) => [...verificationKeys.all(accountId), 'list'] as const,
  list: (accountId: number, params: VerificationListParams) =>
    [...verificationKeys.lists(accountId), params] as const,
};

export type VerificationListParams = {
  verifyFormId__in?: readonly number[];
  pageNumber?: number;
  pageSize?: number;
};

// GET /api/verifications?account={id}&verifyFormId__in=…&pageNumber=…&pageSize=… — newest first (canSearchData)
export function fetchVerifications(
  api: ApiClient,
  accountId: number,
  params: VerificationListParams,
  signal?: AbortSignal,
): Promise<VerificationList> {
  return api.get('/api/verifications', {
    schema: verificationListSchema,
    signal,
    query: {
      account: accountId,
      verifyFormId__in: params.verifyFormId__in?.length ? params.verifyFormId__in : undefined,
      pageNumber: params.pageNumber,
      pageSize: params.pageSize,
    },
  });
}

export function verificationListQueryOptions(
  api: ApiClient,
  accountId: number,
  params: VerificationListParams,
) {
  return queryOptions({
    queryKey: verificationKeys.list(accountId, params),
    queryFn: ({ signal }) => fetchVerifications(api, accountId, params, signal),
  });
}
