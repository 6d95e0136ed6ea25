import { Button, Text } from '@mantine/core';
import { createFileRoute, redirect, useNavigate } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useResendVerificationEmailMutation } from '../../../../../features/auth/api';
import { CheckInboxPage, NotYouFooter } from '../../../../../features/auth/components/CheckInboxPage';
import { useSessionPolling } from '../../../../../features/auth/use-session-polling';
import { errorDisplayText } from '../../../../../lib/error-text';
import { notify } from '../../../../../lib/notify';

export const Route = createFileRoute('/_public/auth/signup/verify-email/')({
  beforeLoad: ({ context }) => {
    const { user } = context.session.get();
    if (!user.isAuthenticated || user.emailIsVerified) throw redirect({ to: '/' });
  },
  component: SignupVerifyEmailPage,
});

function SignupVerifyEmailPage() {
  const { user } = useSessionPolling();
  const navigate = useNavigate();
  const resend = useResendVerificationEmailMutation();

  useEffect(() => {
    if (!user.isAuthenticated) void navigate({ to: '/', replace: true });
    else if (user.emailIsVerified) void navigate({ to: '/auth/signup/verify-email/success', replace: true });
  }, [user.isAuthenticated, user.emailIsVerified, navigate]);

  const onResend = () =>
    resend.mutate(
      { email: user.email },
      {
        onSuccess: () => notify.success('Sent Verification Email', `Sent to ${user.email}.`),
        onError: (error) => notify.error('Failed to Send Verification Email', errorDisplayText(error)),
      },
    );

  return (
    <CheckInboxPage
      sent={
        <>
          We sent a verification link to{' '}
          <Text span fw={600}>
            {user.email}
          </Text>
          .
        </>
      }
      hint="Open it to verify your e-mail address. This page moves on by itself once you have. The e-mail can take a minute to arrive; check your spam folder too."
      footer={<NotYouFooter />}
    >
      <Button variant="light" onClick={onResend} loading={resend.isPending}>
        Resend verification e-mail
      </Button>
    </CheckInboxPage>
  );
}
