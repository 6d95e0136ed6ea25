import { Button, Text } from '@mantine/core';
import { createFileRoute, redirect, useNavigate } from '@tanstack/react-router';
import { FormErrorAlert } from '../../../../../../../components/form/FormErrorAlert';
import { AuthPage } from '../../../../../../../components/layout/AuthPage';
import { useConfirmVerifyEmailMutation } from '../../../../../../../features/auth/api';
import { ApiValidationError } from '../../../../../../../lib/api-client';

/**
 * The link from the verification e-mail. Opening it only checks the token (the server put `isValid` in the page
 * data); the button's POST does the work, so mail scanners that prefetch links consume nothing.
 */
export const Route = createFileRoute('/_public/auth/verify-email/confirm/$uidb64/$secretToken/')({
  beforeLoad: ({ context }) => {
    if (!context.initialData.extra.verifyEmailConfirm?.isValid) {
      throw redirect({ to: '/auth/verify-email/confirm/invalid', replace: true });
    }
  },
  component: ConfirmVerifyEmailPage,
});

function ConfirmVerifyEmailPage() {
  const { uidb64, secretToken } = Route.useParams();
  const navigate = useNavigate();
  const confirm = useConfirmVerifyEmailMutation();

  const onConfirm = () =>
    confirm.mutate(
      { uidb64, token: secretToken },
      {
        onSuccess: () => void navigate({ to: '/auth/verify-email/confirm/success', replace: true }),
        onError: (error) => {
          if (error instanceof ApiValidationError && error.mainCode === 'invalid_token') {
            void navigate({ to: '/auth/verify-email/confirm/invalid', replace: true });
          }
        },
      },
    );

  const shownError =
    confirm.error instanceof ApiValidationError && confirm.error.mainCode === 'invalid_token'
      ? null
      : confirm.error;

  return (
    <AuthPage title="Confirm your e-mail address">
      <Text>Press the button to finish verifying your e-mail address.</Text>
      <FormErrorAlert error={shownError} labels={{}} inlineFields={[]} />
      <Button onClick={onConfirm} loading={confirm.isPending} fullWidth>
        Confirm e-mail address
      </Button>
    </AuthPage>
  );
}
