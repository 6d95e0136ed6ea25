import { Button, Text } from '@mantine/core';
import { createFileRoute, redirect, useNavigate } from '@tanstack/react-router';
import { FormErrorAlert } from '../../../../../../../components/form/FormErrorAlert';
import { AuthPage } from '../../../../../../../components/layout/AuthPage';
import { useCancelEmailChangeMutation } from '../../../../../../../features/auth/api';
import { ApiValidationError } from '../../../../../../../lib/api-client';

/**
 * The link sent to the OLD address when someone asks to move the login to another one. Opening it only checks the
 * token (a mail scanner may prefetch it); the button's POST calls the change off.
 */
export const Route = createFileRoute('/_public/auth/change-email/cancel/$uidb64/$secretToken/')({
  beforeLoad: ({ context }) => {
    if (!context.initialData.extra.changeEmailCancel?.isValid) {
      throw redirect({ to: '/auth/change-email/cancel/invalid', replace: true });
    }
  },
  component: CancelEmailChangePage,
});

const isInvalidToken = (error: unknown) =>
  error instanceof ApiValidationError && error.mainCode === 'invalid_token';

function CancelEmailChangePage() {
  const { uidb64, secretToken } = Route.useParams();
  const navigate = useNavigate();
  const cancel = useCancelEmailChangeMutation();

  const onCancel = () =>
    cancel.mutate(
      { uidb64, token: secretToken },
      {
        onSuccess: () => void navigate({ to: '/auth/change-email/cancel/success', replace: true }),
        onError: (error) => {
          if (isInvalidToken(error))
            void navigate({ to: '/auth/change-email/cancel/invalid', replace: true });
        },
      },
    );

  return (
    <AuthPage title="Cancel the e-mail address change">
      <Text>
        Someone asked to change the e-mail address of your Veriform login. If it was not you, cancel the
        change: your login keeps this address.
      </Text>
      <FormErrorAlert
        error={isInvalidToken(cancel.error) ? null : cancel.error}
        labels={{}}
        inlineFields={[]}
      />
      <Button color="red" onClick={onCancel} loading={cancel.isPending} fullWidth>
        Cancel the change
      </Button>
    </AuthPage>
  );
}
