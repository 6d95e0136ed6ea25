import { Text } from '@mantine/core';
import { createFileRoute } from '@tanstack/react-router';
import { AuthPage } from '../../../../../components/layout/AuthPage';
import { ButtonLink } from '../../../../../components/links';

export const Route = createFileRoute('/_public/auth/verify-email/confirm/invalid')({
  component: ConfirmInvalidPage,
});

function ConfirmInvalidPage() {
  return (
    <AuthPage title="This link is invalid or has expired">
      <Text>
        Verification links work once and only for a limited time. Request a new one and use the latest e-mail
        we send.
      </Text>
      <ButtonLink to="/auth/verify-email/resend" fullWidth>
        Request a new link
      </ButtonLink>
    </AuthPage>
  );
}
