import { Text } from '@mantine/core';
import { createFileRoute, redirect } from '@tanstack/react-router';
import { AuthPage } from '../../../../../components/layout/AuthPage';
import { ButtonLink } from '../../../../../components/links';

export const Route = createFileRoute('/_public/auth/signup/verify-email/success')({
  beforeLoad: ({ context }) => {
    const { user } = context.session.get();
    if (!user.isAuthenticated || !user.emailIsVerified) throw redirect({ to: '/' });
  },
  component: SignupVerifiedPage,
});

function SignupVerifiedPage() {
  return (
    <AuthPage title="Your e-mail address is verified">
      <Text>Thanks for confirming your address.</Text>
      <ButtonLink to="/" fullWidth>
        Continue
      </ButtonLink>
    </AuthPage>
  );
}
