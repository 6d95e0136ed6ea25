import { Button, Text } from '@mantine/core';
import { createFileRoute, redirect, useNavigate } from '@tanstack/react-router';
import { FormErrorAlert } from '../../../../components/form/FormErrorAlert';
import { AuthPage } from '../../../../components/layout/AuthPage';
import { useResendVerificationEmailMutation } from '../../../../features/auth/api';
import { NotYouFooter } from '../../../../features/auth/components/CheckInboxPage';
import { notify } from '../../../../lib/notify';
import { useSession } from '../../../../lib/session';

export const Route = createFileRoute('/_public/auth/verify-email/')({
  beforeLoad: ({ context }) => {
    const { user } = context.session.get();
    if (!user.isAuthenticated) throw redirect({ to: '/auth/verify-email/resend' });
    if (user.emailIsVerified) throw redirect({ to: '/' });
  },
  component: VerifyEmailAgainPage,
});

/** A user verified once whose address now needs verifying again (SPEC §4 gate). */
function VerifyEmailAgainPage() {
  const { user } = useSession();
  const navigate = useNavigate();
  const send = useResendVerificationEmailMutation();

  const onSend = () =>
    send.mutate(
      { email: user.email },
      {
        onSuccess: () => {
          notify.success('Sent Verification Email', `Sent to ${user.email}.`);
          void navigate({ to: '/auth/verify-email/sent' });
        },
      },
    );

  return (
    <AuthPage title="Verify your e-mail address" footer={<NotYouFooter />}>
      <Text>
        Your e-mail address{' '}
        <Text span fw={600}>
          {user.email}
        </Text>{' '}
        needs to be verified again before you can continue. We will send a verification link to it.
      </Text>
      <FormErrorAlert error={send.error} labels={{ email: 'Email' }} inlineFields={[]} />
      <Button onClick={onSend} loading={send.isPending} fullWidth>
        Send verification e-mail
      </Button>
    </AuthPage>
  );
}
