import { Text } from '@mantine/core';
import { createFileRoute } from '@tanstack/react-router';
import { AuthPage } from '../../../../../components/layout/AuthPage';
import { ButtonLink } from '../../../../../components/links';
import { useSession } from '../../../../../lib/session';

export const Route = createFileRoute('/_public/auth/change-email/confirm/success')({
  component: ChangeEmailSuccessPage,
});

function ChangeEmailSuccessPage() {
  const { user } = useSession();
  return (
    <AuthPage title="Your e-mail address has been changed">
      <Text>
        {user.isAuthenticated ? (
          <>
            From now on, use{' '}
            <Text span fw={600}>
              {user.email}
            </Text>{' '}
            to log in to Veriform.
          </>
        ) : (
          'From now on, use your new address to log in to Veriform.'
        )}
      </Text>
      <ButtonLink to="/" fullWidth>
        Continue
      </ButtonLink>
    </AuthPage>
  );
}
