import { createFileRoute } from '@tanstack/react-router';
import { ForgotPasswordLink } from '../../../../features/auth/components/ForgotPasswordLink';
import { LoginForm } from '../../../../features/auth/components/LoginForm';
import { useLoginSubmit } from '../../../../features/auth/components/use-login-submit';
import { InvitationAuthPage } from '../../../../features/invitations/components/InvitationAuthPage';
import {
  followInvitationSearch,
  requireSignedOutFollowInvitation,
  useAcceptAfterAuth,
} from '../../../../features/invitations/follow';

/**
 * SPEC §2: log in to accept an invitation (the invited address filled in); the invitation is accepted right after.
 * A missing or broken invitation goes to /follow-invitation/error; a signed-in user is sent to the invitation page.
 */
export const Route = createFileRoute('/_public/auth/login/from-invitation')({
  validateSearch: followInvitationSearch,
  beforeLoad: requireSignedOutFollowInvitation,
  component: LoginFromInvitationPage,
});

function LoginFromInvitationPage() {
  const { invitation } = Route.useRouteContext();
  const acceptAfterAuth = useAcceptAfterAuth(invitation);
  const calls = useLoginSubmit(() => void acceptAfterAuth.run());
  return (
    <InvitationAuthPage page="login" invitation={invitation}>
      <LoginForm initialEmail={invitation.email} {...calls} forgotPassword={<ForgotPasswordLink />} />
    </InvitationAuthPage>
  );
}
