import { queryOptions, useMutation } from '@tanstack/react-query';
import {
  type ContactabilityCheck,
  type ContactabilitySearch,
  contactabilityEndpoints,
} from '@veriform/contracts';
import type { z } from 'zod';
import { accountScope } from '../../lib/account-keys';
import type { ApiClient } from '../../lib/api-client';
import { useServices } from '../../lib/services';

/**
 * "May I contact this number now?" in the app (issue #35): the list of verdicts kept, its query options, and the
 * question a member asks. The endpoints (method, path, schemas) are the contract's `contactabilityEndpoints`. Keys
 * start with the account scope, so switching accounts reloads.
 */
export const contactabilityKeys = {
  all: (accountId: number) => [...accountScope, accountId, 'contactability'] as const,
  list: (accountId: number, search: ContactabilitySearch) =>
    [...contactabilityKeys.all(accountId), search] as const,
};

export function contactabilityListQueryOptions(
  api: ApiClient,
  accountId: number,
  search: ContactabilitySearch,
) {
  return queryOptions({
    queryKey: contactabilityKeys.list(accountId, search),
    queryFn: ({ signal }) =>
      api.call(contactabilityEndpoints.list, { query: { account: accountId, ...search }, signal }),
  });
}

export type ContactabilityQuestion = z.input<typeof contactabilityEndpoints.check.body>;

/** A member asks; the verdict is kept, so the list reads again. */
export function useCheckContactabilityMutation(accountId: number) {
  const { api, queryClient } = useServices();
  return useMutation({
    mutationFn: (body: ContactabilityQuestion): Promise<ContactabilityCheck> =>
      api.call(contactabilityEndpoints.check, { query: { account: accountId }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: contactabilityKeys.all(accountId) }),
  });
}
