import { Text } from '@mantine/core';
import { createFileRoute } from '@tanstack/react-router';
import { AuthPage } from '../../../../components/layout/AuthPage';
import { ButtonLink } from '../../../../components/links';

export const Route = createFileRoute('/_public/auth/verify-email/success')({
  component: VerifyEmailSuccessPage,
});

function VerifyEmailSuccessPage() {
  return (
    <AuthPage title="Your e-mail address is verified">
      <Text>Thanks for confirming your address.</Text>
      <ButtonLink to="/" fullWidth>
        Continue
      </ButtonLink>
    </AuthPage>
  );
}
