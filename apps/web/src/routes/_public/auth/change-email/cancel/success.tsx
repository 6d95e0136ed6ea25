import { Text } from '@mantine/core';
import { createFileRoute } from '@tanstack/react-router';
import { serverTexts } from '@veriform/contracts';
import { AuthPage } from '../../../../../components/layout/AuthPage';
import { ButtonLink } from '../../../../../components/links';

export const Route = createFileRoute('/_public/auth/change-email/cancel/success')({
  component: CancelEmailChangeSuccessPage,
});

function CancelEmailChangeSuccessPage() {
  return (
    <AuthPage title="The change was cancelled">
      <Text>{serverTexts.emailChangeCancelled}</Text>
      <Text>
        If you did not ask for it, whoever did knew your password: reset it now so that they cannot log in
        again.
      </Text>
      <ButtonLink to="/auth/reset-password" fullWidth>
        Reset password
      </ButtonLink>
    </AuthPage>
  );
}
