import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { AuthPage } from '../../../../components/layout/AuthPage';
import { AnchorLink } from '../../../../components/links';
import { ResetPasswordRequestForm } from '../../../../features/auth/components/ResetPasswordRequestForm';
import { useSession } from '../../../../lib/session';

/** Open to everyone: a signed-in user reaches it from My Account's "Forgot password?" too. */
export const Route = createFileRoute('/_public/auth/reset-password/')({
  component: ResetPasswordPage,
});

function ResetPasswordPage() {
  const { user } = useSession();
  const navigate = useNavigate();
  return (
    <AuthPage
      title="Reset your password"
      description="Enter the e-mail address you use for Veriform and we will send you a link to choose a new password."
      footer={
        user.isAuthenticated ? (
          <AnchorLink to="/settings/my-account">Back to My Account</AnchorLink>
        ) : (
          <>
            Remembered it? <AnchorLink to="/auth/login/">Log in</AnchorLink>
          </>
        )
      }
    >
      <ResetPasswordRequestForm
        initialEmail={user.email}
        onSuccess={() => void navigate({ to: '/auth/reset-password/sent' })}
      />
    </AuthPage>
  );
}
