import { createFileRoute, redirect, useNavigate } from '@tanstack/react-router';
import { AuthPage } from '../../../../components/layout/AuthPage';
import { AnchorLink } from '../../../../components/links';
import { CreateCompanyForm } from '../../../../features/accounts/components/CreateCompanyForm';
import { gateTarget } from '../../../../lib/gate';
import { useSession } from '../../../../lib/session';

/**
 * SPEC §2: the last step of signing up (only for a signed-in user, else back to /): name the company. Also where the
 * account menu's "Create company" leads, for a user who wants one more account.
 */
export const Route = createFileRoute('/_public/auth/signup/complete')({
  beforeLoad: ({ context }) => {
    const { user } = context.session.get();
    if (!user.isAuthenticated) throw redirect({ to: '/' });
    // An address still to verify comes first (the SPEC §4 gate).
    const target = gateTarget(user);
    if (target) throw redirect({ to: target });
  },
  component: SignupCompletePage,
});

function SignupCompletePage() {
  const navigate = useNavigate();
  const { memberships } = useSession();
  const first = memberships.length === 0;
  return (
    <AuthPage
      title="Create your company"
      description={
        first
          ? 'One last step: name your company. You will be its owner and can invite your team next.'
          : 'Add another company account. You will be its owner, and it becomes your current account.'
      }
      footer={
        first ? (
          <>
            Invited to join a team? Open the link in the invitation e-mail instead.{' '}
            <AnchorLink to="/settings/my-account">Go to My Account</AnchorLink>
          </>
        ) : (
          <AnchorLink to="/">Cancel</AnchorLink>
        )
      }
    >
      <CreateCompanyForm onSuccess={() => void navigate({ to: '/dashboard/', replace: true })} />
    </AuthPage>
  );
}
