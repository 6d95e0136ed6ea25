import type { Tx } from '@veriform/db';
import { schema } from '@veriform/db';
import { and, eq, isNull } from 'drizzle-orm';

const { invitations } = schema;

/**
 * Revokes the open invitations `userId` sent for `accountId`, in the caller's transaction: run with the membership
 * change that takes their right to invite away (removal, leaving, demotion), under the same account lock. A rule of
 * the membership change, so it lives here: the invitations module reads memberships, never the other way round
 * (invitations/inviter.ts says who may invite; ADR 0036).
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
