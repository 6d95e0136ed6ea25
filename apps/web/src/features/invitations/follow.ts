import { redirect, useNavigate } from '@tanstack/react-router';
import { type FollowInvitation, type InitialExtra, invitationPages, type Role } from '@veriform/contracts';
import { z } from 'zod';
import { errorDisplayText } from '../../lib/error-text';
import { notify } from '../../lib/notify';
import type { RouterContext } from '../../lib/router-context';
import { useAcceptInvitationMutation } from './api';

/** The invitation the server put in the page data, unless it is missing or flagged with an error. */
export function followInvitationFrom(extra: InitialExtra): FollowInvitation | null {
  const invitation = extra.followInvitation;
  return invitation && invitation.hasError === false ? invitation : null;
}

/**
 * `beforeLoad` of the invitation pages (SPEC §2): a missing invitation, or one flagged with an error, goes to
 * /follow-invitation/error; otherwise the invitation joins the route context.
 */
export function requireFollowInvitation({ context }: { context: RouterContext }): {
  invitation: FollowInvitation;
} {
  const invitation = followInvitationFrom(context.initialData.extra);
  if (!invitation) throw redirect({ to: '/follow-invitation/error', replace: true });
  return { invitation };
}

/** The query of the pages that log in or sign up to accept an invitation: its key, kept for the links between them. */
export const followInvitationSearch = z.object({ key: z.string().optional().catch(undefined) });

/**
 * `beforeLoad` of the pages that log in or sign up to accept an invitation: as requireFollowInvitation, and a user
 * already signed in is sent to the invitation page, which handles them.
 */
export function requireSignedOutFollowInvitation({ context }: { context: RouterContext }): {
  invitation: FollowInvitation;
} {
  const { invitation } = requireFollowInvitation({ context });
  if (context.session.get().user.isAuthenticated)
    throw redirect({ to: invitationPages.follow, search: { key: invitation.key }, replace: true });
  return { invitation };
}

export function roleWithArticle(role: Role): string {
  return role === 'owner' ? 'an owner' : 'a member';
}

/** "{invitedByName} invited you to join {accountName} as {an owner|a member}." */
export function invitationSentence(
  invitation: Pick<FollowInvitation, 'invitedByName' | 'accountName' | 'role'>,
) {
  return `${invitation.invitedByName} invited you to join ${invitation.accountName} as ${roleWithArticle(invitation.role)}.`;
}

export function sameAddress(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

/**
 * After logging in or signing up from an invitation: accept it at once and go in. If the server refuses (another
 * address, expired meanwhile), say why and show the invitation page, which offers what is still possible.
 */
export function useAcceptAfterAuth(invitation: FollowInvitation) {
  const accept = useAcceptInvitationMutation();
  const navigate = useNavigate();
  const run = async () => {
    try {
      await accept.mutateAsync(invitation.key);
      notify.success('Invitation accepted', `Welcome to ${invitation.accountName}.`);
      await navigate({ to: '/', replace: true });
    } catch (error) {
      notify.error('Could not accept the invitation', errorDisplayText(error));
      await navigate({ to: invitationPages.follow, search: { key: invitation.key }, replace: true });
    }
  };
  return { run, isPending: accept.isPending };
}
