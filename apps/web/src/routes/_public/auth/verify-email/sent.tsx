import { Stack, Text } from '@mantine/core';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { useEffect } from 'react';
import { AuthPage } from '../../../../components/layout/AuthPage';
import { AnchorLink } from '../../../../components/links';
import { useSessionPolling } from '../../../../features/auth/use-session-polling';
import { useSession } from '../../../../lib/session';

export const Route = createFileRoute('/_public/auth/verify-email/sent')({
  component: VerifyEmailSentPage,
});

function VerifyEmailSentPage() {
  const { user: initialUser } = useSession();
  // Only a signed-in user with an unverified address has a session worth watching.
  const watching = initialUser.isAuthenticated && !initialUser.emailIsVerified;
  const { user } = useSessionPolling(watching);
  const navigate = useNavigate();

  useEffect(() => {
    if (watching && user.isAuthenticated && user.emailIsVerified) {
      void navigate({ to: '/auth/verify-email/success', replace: true });
    }
  }, [watching, user.isAuthenticated, user.emailIsVerified, navigate]);

  return (
    <AuthPage title="Check your inbox">
      <Stack gap="xs">
        <Text>
          {user.isAuthenticated ? (
            <>
              We sent a verification link to{' '}
              <Text span fw={600}>
                {user.email}
              </Text>
              .
            </>
          ) : (
            'If that address belongs to an account that needs verifying, we sent a verification link to it.'
          )}
        </Text>
        <Text c="dimmed" size="sm">
          Open the link to verify your e-mail address. It can take a minute to arrive; check your spam folder
          too.
        </Text>
      </Stack>
      <Text size="sm">
        Did not get it? <AnchorLink to="/auth/verify-email/resend">Request a new link</AnchorLink>
      </Text>
    </AuthPage>
  );
}
