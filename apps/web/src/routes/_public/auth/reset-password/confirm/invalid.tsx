import { Text } from '@mantine/core';
import { createFileRoute } from '@tanstack/react-router';
import { AuthPage } from '../../../../../components/layout/AuthPage';
import { ButtonLink } from '../../../../../components/links';

export const Route = createFileRoute('/_public/auth/reset-password/confirm/invalid')({
  component: ResetPasswordInvalidPage,
});

function ResetPasswordInvalidPage() {
  return (
    <AuthPage title="This link is invalid or has expired">
      <Text>
        Password-reset links work once and only for a limited time. Request a new one and use the latest
        e-mail we send.
      </Text>
      <ButtonLink to="/auth/reset-password/" fullWidth>
        Request a new link
      </ButtonLink>
    </AuthPage>
  );
}
