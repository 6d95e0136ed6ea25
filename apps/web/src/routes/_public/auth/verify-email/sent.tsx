import { Text } from '@mantine/core';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { useEffect } from 'react';
import { CheckInboxPage, RequestNewLink } from '../../../../features/auth/components/CheckInboxPage';
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
    <CheckInboxPage
      sent={
        user.isAuthenticated ? (
          <>
            We sent a verification link to{' '}
            <Text span fw={600}>
              {user.email}
            </Text>
            .
          </>
        ) : (
          'If that address belongs to an account that needs verifying, we sent a verification link to it.'
        )
      }
      hint="Open the link to verify your e-mail address. It can take a minute to arrive; check your spam folder too."
    >
      <RequestNewLink to="/auth/verify-email/resend" />
    </CheckInboxPage>
  );
}
