import { Text } from '@mantine/core';
import { createFileRoute } from '@tanstack/react-router';
import { AuthPage } from '../../../../../components/layout/AuthPage';
import { ButtonLink } from '../../../../../components/links';

export const Route = createFileRoute('/_public/auth/verify-email/confirm/success')({
  component: ConfirmSuccessPage,
});

function ConfirmSuccessPage() {
  return (
    <AuthPage title="Your e-mail address is verified">
      <Text>Thanks for confirming your address. You can now use Veriform.</Text>
      <ButtonLink to="/" fullWidth>
        Continue
      </ButtonLink>
    </AuthPage>
  );
}
