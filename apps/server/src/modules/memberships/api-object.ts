import type { ApiMembership } from '@veriform/contracts';
import type { MembershipRow } from './repository.ts';

/** A membership as the `membership.*` webhook events carry it (contracts `apiMembershipSchema`). */
export const toApiMembership = (
  membership: MembershipRow,
  user: { id: number; email: string; name: string },
): ApiMembership => ({
  id: membership.id,
  account: membership.accountId,
  user: { id: user.id, email: user.email, name: user.name },
  role: membership.role,
  canSearchData: membership.canSearchData,
  canViewReports: membership.canViewReports,
  created: membership.createdAt.toISOString(),
});
