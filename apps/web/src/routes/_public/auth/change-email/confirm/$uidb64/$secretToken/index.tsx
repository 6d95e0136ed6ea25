import { Button, Text } from '@mantine/core';
import { createFileRoute, redirect, useNavigate } from '@tanstack/react-router';
import { FormErrorAlert } from '../../../../../../../components/form/FormErrorAlert';
import { AuthPage } from '../../../../../../../components/layout/AuthPage';
import { useConfirmEmailChangeMutation } from '../../../../../../../features/auth/api';
import { ApiValidationError } from '../../../../../../../lib/api-client';
import { postBroadcast } from '../../../../../../../lib/broadcast';

/**
 * The link from the e-mail-change message. Opening it only checks the token; the button's POST changes the address,
 * then tells the other tabs (SPEC §4: they refresh the My Account page's status).
 */
export const Route = createFileRoute('/_public/auth/change-email/confirm/$uidb64/$secretToken/')({
  beforeLoad: ({ context }) => {
    if (!context.initialData.extra.changeEmailConfirm?.isValid) {
      throw redirect({ to: '/auth/change-email/confirm/invalid', replace: true });
    }
  },
  component: ConfirmEmailChangePage,
});

const isInvalidToken = (error: unknown) =>
  error instanceof ApiValidationError && error.mainCode === 'invalid_token';

function ConfirmEmailChangePage() {
  const { uidb64, secretToken } = Route.useParams();
  const navigate = useNavigate();
  const confirm = useConfirmEmailChangeMutation();

  const onConfirm = () =>
    confirm.mutate(
      { uidb64, token: secretToken },
      {
        onSuccess: () => {
          postBroadcast({ type: 'user.emailChanged' });
          void navigate({ to: '/auth/change-email/confirm/success', replace: true });
        },
        onError: (error) => {
          if (isInvalidToken(error))
            void navigate({ to: '/auth/change-email/confirm/invalid', replace: true });
        },
      },
    );

  return (
    <AuthPage title="Confirm your new e-mail address">
      <Text>Press the button to start using this address for Veriform.</Text>
      <FormErrorAlert
        error={isInvalidToken(confirm.error) ? null : confirm.error}
        labels={{}}
        inlineFields={[]}
      />
      <Button onClick={onConfirm} loading={confirm.isPending} fullWidth>
        Confirm new e-mail address
      </Button>
    </AuthPage>
  );
}
