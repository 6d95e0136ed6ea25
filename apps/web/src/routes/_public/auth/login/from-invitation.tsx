import { createFileRoute, redirect } from '@tanstack/react-router';
import { invitationPages } from '@veriform/contracts';
import { z } from 'zod';
import { AuthPage } from '../../../../components/layout/AuthPage';
import { AnchorLink } from '../../../../components/links';
import { ForgotPasswordLink } from '../../../../features/auth/components/ForgotPasswordLink';
import { LoginForm } from '../../../../features/auth/components/LoginForm';
import { useLoginSubmit } from '../../../../features/auth/components/use-login-submit';
import {
  invitationSentence,
  requireFollowInvitation,
  useAcceptAfterAuth,
} from '../../../../features/invitations/follow';

const searchSchema = z.object({ key: z.string().optional().catch(undefined) });

/**
 * SPEC §2: log in to accept an invitation (the invited address filled in); the invitation is accepted right after.
 * A missing or broken invitation goes to /follow-invitation/error; a signed-in user is sent to the invitation page.
 */
export const Route = createFileRoute('/_public/auth/login/from-invitation')({
  validateSearch: searchSchema,
  beforeLoad: ({ context }) => {
    const { invitation } = requireFollowInvitation({ context });
    if (context.session.get().user.isAuthenticated)
      throw redirect({ to: invitationPages.follow, search: { key: invitation.key }, replace: true });
    return { invitation };
  },
  component: LoginFromInvitationPage,
});

function LoginFromInvitationPage() {
  const { invitation } = Route.useRouteContext();
  const acceptAfterAuth = useAcceptAfterAuth(invitation);
  const submit = useLoginSubmit(() => void acceptAfterAuth.run());
  return (
    <AuthPage
      title={`Log in to join ${invitation.accountName}`}
      description={invitationSentence(invitation)}
      footer={
        <>
          New to Veriform?{' '}
          <AnchorLink to={invitationPages.signup} search={{ key: invitation.key }}>
            Sign up to accept
          </AnchorLink>
        </>
      }
    >
      <LoginForm initialEmail={invitation.email} submit={submit} forgotPassword={<ForgotPasswordLink />} />
    </AuthPage>
  );
}
