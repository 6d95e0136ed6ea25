import { Text } from '@mantine/core';
import { createFileRoute, redirect } from '@tanstack/react-router';
import { AuthPage } from '../../../../components/layout/AuthPage';
import { ButtonLink } from '../../../../components/links';

export const Route = createFileRoute('/_public/auth/signup/complete')({
  beforeLoad: ({ context }) => {
    if (!context.session.get().user.isAuthenticated) throw redirect({ to: '/' });
  },
  component: SignupCompletePage,
});

function SignupCompletePage() {
  return (
    <AuthPage title="Your account is ready">
      <Text>Everything is set up. Continue to start using Veriform.</Text>
      <ButtonLink to="/" fullWidth>
        Continue
      </ButtonLink>
    </AuthPage>
  );
}
