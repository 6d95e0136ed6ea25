import { useMutation } from '@tanstack/react-query';
import type { Membership } from '@veriform/contracts';
import { type ApiClient, noContent } from '../../lib/api-client';
import { useServices } from '../../lib/services';

// POST /api/memberships/{id}/select with {} — tells the server which account is current (SPEC §4, §7).
export function selectMembership(api: ApiClient, membershipId: number): Promise<unknown> {
  return api.post(`/api/memberships/${membershipId}/select`, { schema: noContent, body: {} });
}

/** Switch accounts: locally first (remembered in both storages), then tell the server. */
export function useSelectMembershipMutation() {
  const { api, session } = useServices();
  return useMutation({
    mutationFn: async (membership: Membership) => {
      session.selectMembership(membership);
      await selectMembership(api, membership.id);
      return membership;
    },
  });
}
