import { Button, Stack, Text } from '@mantine/core';
import { createFileRoute, redirect, useNavigate } from '@tanstack/react-router';
import { useEffect } from 'react';
import { AuthPage } from '../../../../../components/layout/AuthPage';
import { AnchorLink } from '../../../../../components/links';
import { useResendVerificationEmailMutation } from '../../../../../features/auth/api';
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
    <AuthPage
      title="Check your inbox"
      footer={
        <>
          Not you? <AnchorLink to="/settings/logout">Log out</AnchorLink>
        </>
      }
    >
      <Stack gap="xs">
        <Text>
          We sent a verification link to{' '}
          <Text span fw={600}>
            {user.email}
          </Text>
          .
        </Text>
        <Text c="dimmed" size="sm">
          Open it to verify your e-mail address. This page moves on by itself once you have. The e-mail can
          take a minute to arrive; check your spam folder too.
        </Text>
      </Stack>
      <Button variant="light" onClick={onResend} loading={resend.isPending}>
        Resend verification e-mail
      </Button>
    </AuthPage>
  );
}
