import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { AuthPage } from '../../../../../components/layout/AuthPage';
import { AnchorLink } from '../../../../../components/links';
import { SignupForm } from '../../../../../features/auth/components/SignupForm';

export const Route = createFileRoute('/_public/_guest/auth/signup/')({
  component: SignupPage,
});

function SignupPage() {
  const navigate = useNavigate();
  return (
    <AuthPage
      title="Create your account"
      description="Start collecting verified consent in minutes."
      footer={
        <>
          Already have an account? <AnchorLink to="/auth/login">Log in</AnchorLink>
        </>
      }
    >
      <SignupForm onSuccess={() => void navigate({ to: '/auth/signup/verify-email', replace: true })} />
    </AuthPage>
  );
}
