import { Text } from '@mantine/core';
import { createFileRoute } from '@tanstack/react-router';
import { AuthPage } from '../../../../../components/layout/AuthPage';
import { ButtonLink } from '../../../../../components/links';

export const Route = createFileRoute('/_public/auth/change-email/confirm/invalid')({
  component: ChangeEmailInvalidPage,
});

function ChangeEmailInvalidPage() {
  return (
    <AuthPage title="This link is invalid or has expired">
      <Text>
        E-mail change links work once and only for a limited time. Send a new one from My Account and use the
        latest e-mail we send.
      </Text>
      <ButtonLink to="/settings/my-account" fullWidth>
        Go to My Account
      </ButtonLink>
    </AuthPage>
  );
}
