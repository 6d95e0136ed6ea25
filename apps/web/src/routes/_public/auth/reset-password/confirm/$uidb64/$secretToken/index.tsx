import { createFileRoute, redirect, useNavigate } from '@tanstack/react-router';
import { AuthPage } from '../../../../../../../components/layout/AuthPage';
import { ResetPasswordConfirmForm } from '../../../../../../../features/auth/components/ResetPasswordConfirmForm';
import { notify } from '../../../../../../../lib/notify';

/**
 * The link from the password-reset e-mail. Opening it only checks the token (the server put `isValid` in the page
 * data); the form's POST sets the password and ends every session of that user.
 */
export const Route = createFileRoute('/_public/auth/reset-password/confirm/$uidb64/$secretToken/')({
  beforeLoad: ({ context }) => {
    if (!context.initialData.extra.resetPasswordConfirm?.isValid) {
      throw redirect({ to: '/auth/reset-password/confirm/invalid', replace: true });
    }
  },
  component: ResetPasswordConfirmPage,
});

function ResetPasswordConfirmPage() {
  const { uidb64, secretToken } = Route.useParams();
  const navigate = useNavigate();
  return (
    <AuthPage title="Choose a new password">
      <ResetPasswordConfirmForm
        uidb64={uidb64}
        token={secretToken}
        onSuccess={() => {
          notify.success('Password reset', 'Log in with your new password.');
          void navigate({ to: '/auth/login/', replace: true });
        }}
        onInvalidToken={() => void navigate({ to: '/auth/reset-password/confirm/invalid', replace: true })}
      />
    </AuthPage>
  );
}
