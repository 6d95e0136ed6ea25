import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { AuthPage } from '../../../../components/layout/AuthPage';
import { ResendVerificationForm } from '../../../../features/auth/components/ResendVerificationForm';
import { notify } from '../../../../lib/notify';
import { useSession } from '../../../../lib/session';

export const Route = createFileRoute('/_public/auth/verify-email/resend')({
  component: ResendVerificationPage,
});

function ResendVerificationPage() {
  const { user } = useSession();
  const navigate = useNavigate();
  return (
    <AuthPage
      title="Get a new verification link"
      description="Enter your e-mail address and we will send you a new link to verify it."
    >
      <ResendVerificationForm
        initialEmail={user.email}
        onSuccess={(email) => {
          notify.success('Sent Verification Email', `Sent to ${email}.`);
          void navigate({ to: '/auth/verify-email/sent' });
        }}
      />
    </AuthPage>
  );
}
