import { queryOptions, useMutation } from '@tanstack/react-query';
import {
  type CreateTestPhoneNumberRequest,
  type TestPhoneNumber,
  testPhoneNumberEndpoints,
} from '@veriform/contracts';
import { accountScope } from '../../lib/account-keys';
import type { ApiClient } from '../../lib/api-client';
import { useServices } from '../../lib/services';

/**
 * One place per test-number endpoint (test mode; ours): the fetcher, then its query options or mutation hook. The
 * endpoints themselves (method, path, schemas) are the contract's `testPhoneNumberEndpoints`, which the server
 * registers. The key starts with the account scope, so switching accounts reloads it.
 */
export const testNumberKeys = {
  list: (accountId: number) => [...accountScope, accountId, 'test-phone-numbers'] as const,
};

export function fetchTestNumbers(api: ApiClient, accountId: number, signal?: AbortSignal) {
  return api.call(testPhoneNumberEndpoints.list, { query: { account: accountId }, signal });
}

export function testNumbersQueryOptions(api: ApiClient, accountId: number) {
  return queryOptions({
    queryKey: testNumberKeys.list(accountId),
    queryFn: ({ signal }) => fetchTestNumbers(api, accountId, signal),
    select: (data) => data.results,
  });
}

export function createTestNumber(
  api: ApiClient,
  body: CreateTestPhoneNumberRequest,
): Promise<TestPhoneNumber> {
  return api.call(testPhoneNumberEndpoints.create, { body });
}

export function useCreateTestNumberMutation(accountId: number) {
  const { api, queryClient } = useServices();
  return useMutation({
    mutationFn: (body: Omit<CreateTestPhoneNumberRequest, 'account'>) =>
      createTestNumber(api, { ...body, account: accountId }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: testNumberKeys.list(accountId) }),
  });
}

export function deleteTestNumber(api: ApiClient, id: number): Promise<unknown> {
  return api.call(testPhoneNumberEndpoints.remove, { params: { id } });
}

export function useDeleteTestNumberMutation(accountId: number) {
  const { api, queryClient } = useServices();
  return useMutation({
    mutationFn: (id: number) => deleteTestNumber(api, id),
    // Gone already (another owner deleted it) or not: either way the list is read again.
    onSettled: () => queryClient.invalidateQueries({ queryKey: testNumberKeys.list(accountId) }),
  });
}
