import { createFileRoute } from '@tanstack/react-router';
import { SignupForm } from '../../../../features/auth/components/SignupForm';
import { InvitationAuthPage } from '../../../../features/invitations/components/InvitationAuthPage';
import {
  followInvitationSearch,
  requireSignedOutFollowInvitation,
  useAcceptAfterAuth,
} from '../../../../features/invitations/follow';

/**
 * SPEC §2: sign up to accept an invitation (the address is the invited one and cannot be changed); the invitation is
 * accepted right after. A missing or broken invitation goes to /follow-invitation/error; a signed-in user is sent to
 * the invitation page, which handles them.
 */
export const Route = createFileRoute('/_public/auth/signup/from-invitation')({
  validateSearch: followInvitationSearch,
  beforeLoad: requireSignedOutFollowInvitation,
  component: SignupFromInvitationPage,
});

function SignupFromInvitationPage() {
  const { invitation } = Route.useRouteContext();
  const acceptAfterAuth = useAcceptAfterAuth(invitation);
  return (
    <InvitationAuthPage page="signup" invitation={invitation}>
      <SignupForm
        initialEmail={invitation.email}
        emailReadOnly
        onSuccess={() => void acceptAfterAuth.run()}
      />
    </InvitationAuthPage>
  );
}
