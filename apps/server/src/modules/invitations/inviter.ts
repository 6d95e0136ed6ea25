import { can, type Role } from '@veriform/contracts';
import type { Tx } from '@veriform/db';
import { schema } from '@veriform/db';
import { and, eq, isNull } from 'drizzle-orm';

const { invitations } = schema;

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

/**
 * Revokes the open invitations `userId` sent for `accountId`, in the caller's transaction: run with the membership
 * change that takes their right to invite away (removal, leaving, demotion), under the same account lock.
 */
export async function revokeOpenInvitationsBy(
  tx: Tx,
  accountId: number,
  userId: number,
  now: Date,
): Promise<void> {
  await tx
    .update(invitations)
    .set({ revokedAt: now })
    .where(
      and(
        eq(invitations.accountId, accountId),
        eq(invitations.invitedByUserId, userId),
        isNull(invitations.acceptedAt),
        isNull(invitations.revokedAt),
      ),
    );
}
