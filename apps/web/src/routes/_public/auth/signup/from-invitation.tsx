import { createFileRoute, redirect } from '@tanstack/react-router';
import { invitationPages } from '@veriform/contracts';
import { z } from 'zod';
import { AuthPage } from '../../../../components/layout/AuthPage';
import { AnchorLink } from '../../../../components/links';
import { SignupForm } from '../../../../features/auth/components/SignupForm';
import {
  invitationSentence,
  requireFollowInvitation,
  useAcceptAfterAuth,
} from '../../../../features/invitations/follow';

const searchSchema = z.object({ key: z.string().optional().catch(undefined) });

/**
 * SPEC §2: sign up to accept an invitation (the address is the invited one and cannot be changed); the invitation is
 * accepted right after. A missing or broken invitation goes to /follow-invitation/error; a signed-in user is sent to
 * the invitation page, which handles them.
 */
export const Route = createFileRoute('/_public/auth/signup/from-invitation')({
  validateSearch: searchSchema,
  beforeLoad: ({ context }) => {
    const { invitation } = requireFollowInvitation({ context });
    if (context.session.get().user.isAuthenticated)
      throw redirect({ to: invitationPages.follow, search: { key: invitation.key }, replace: true });
    return { invitation };
  },
  component: SignupFromInvitationPage,
});

function SignupFromInvitationPage() {
  const { invitation } = Route.useRouteContext();
  const acceptAfterAuth = useAcceptAfterAuth(invitation);
  return (
    <AuthPage
      title={`Sign up to join ${invitation.accountName}`}
      description={invitationSentence(invitation)}
      footer={
        <>
          Already have an account?{' '}
          <AnchorLink to={invitationPages.login} search={{ key: invitation.key }}>
            Log in to accept
          </AnchorLink>
        </>
      }
    >
      <SignupForm
        initialEmail={invitation.email}
        emailReadOnly
        onSuccess={() => void acceptAfterAuth.run()}
      />
    </AuthPage>
  );
}
