import { queryOptions, useMutation } from '@tanstack/react-query';
import { type RetentionPolicy, retentionEndpoints, type UpdateRetentionRequest } from '@veriform/contracts';
import { accountScope } from '../../lib/account-keys';
import type { ApiClient } from '../../lib/api-client';
import { useServices } from '../../lib/services';

/**
 * The account's evidence retention policy (issue #37 item 1): the query options and the mutation. The endpoints are the
 * contract's `retentionEndpoints`; keys start with the account scope, so switching accounts reloads.
 */
export const retentionKeys = {
  policy: (accountId: number) => [...accountScope, accountId, 'retention'] as const,
};

export function retentionQueryOptions(api: ApiClient, accountId: number) {
  return queryOptions({
    queryKey: retentionKeys.policy(accountId),
    queryFn: ({ signal }): Promise<RetentionPolicy> =>
      api.call(retentionEndpoints.get, { params: { id: accountId }, signal }),
  });
}

export function useUpdateRetentionMutation(accountId: number) {
  const services = useServices();
  return useMutation({
    mutationFn: (body: UpdateRetentionRequest) =>
      services.api.call(retentionEndpoints.update, { params: { id: accountId }, body }),
    onSuccess: (policy) => services.queryClient.setQueryData(retentionKeys.policy(accountId), policy),
  });
}
