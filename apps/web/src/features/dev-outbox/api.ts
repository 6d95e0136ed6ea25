import { queryOptions } from '@tanstack/react-query';
import { devOutboxEndpoints } from '@veriform/contracts';
import type { ApiClient } from '../../lib/api-client';

export function fetchOutbox(api: ApiClient, to: string | undefined) {
  return api.call(devOutboxEndpoints.list, { query: { to: to || undefined } });
}

export function outboxQueryOptions(api: ApiClient, to: string | undefined) {
  return queryOptions({
    queryKey: ['dev-outbox', { to: to ?? '' }],
    queryFn: () => fetchOutbox(api, to),
    staleTime: 0,
  });
}
