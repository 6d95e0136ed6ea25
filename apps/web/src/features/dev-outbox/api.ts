import { queryOptions } from '@tanstack/react-query';
import { outboxListSchema } from '@veriform/contracts';
import type { ApiClient } from '../../lib/api-client';

// GET /api/dev/outbox?to= — development only: messages that would have been sent, newest first.
export function fetchOutbox(api: ApiClient, to: string | undefined) {
  return api.get('/api/dev/outbox', { schema: outboxListSchema, query: { to: to || undefined } });
}

export function outboxQueryOptions(api: ApiClient, to: string | undefined) {
  return queryOptions({
    queryKey: ['dev-outbox', { to: to ?? '' }],
    queryFn: () => fetchOutbox(api, to),
    staleTime: 0,
  });
}
