import { can, type Role } from '@veriform/contracts';

type InviterMembership = { role: Role; canSearchData: boolean; canViewReports: boolean };

/**
 * An invitation is only as good as its inviter: it may be accepted while the person who sent it is still a member
 * of the account who may invite (manageTeam, the right create() asks for whatever the role invited: owners).
 * Otherwise a removed or demoted owner's invitation, accepted as owner, could take the account from the owners who
 * remain. `inviter` is their membership of the invitation's account, if any.
 */
export function inviterMayInvite(inviter: InviterMembership | null | undefined): boolean {
  return Boolean(inviter && can(inviter, 'manageTeam'));
}
