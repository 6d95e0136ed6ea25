import { Button, Stack } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { type ResetPasswordConfirmRequest, resetPasswordConfirmRequestSchema } from '@veriform/contracts';
import { useRef } from 'react';
import { FormErrorAlert } from '../../../components/form/FormErrorAlert';
import { NewPasswordFields } from '../../../components/form/NewPasswordFields';
import { focusFirstInvalid, showServerFieldErrors } from '../../../components/form/server-errors';
import { ApiValidationError } from '../../../lib/api-client';
import { useFocusOnMount } from '../../../lib/use-focus-on-mount';
import { useConfirmPasswordResetMutation } from '../api';

const labels = { newPassword: 'New password', newPasswordConfirm: 'Confirm new password' } as const;
const fields = Object.keys(labels);

const isInvalidToken = (error: unknown) =>
  error instanceof ApiValidationError && error.mainCode === 'invalid_token';

/** The new password for a reset link (the link's uidb64 and token travel with it). */
export function ResetPasswordConfirmForm({
  uidb64,
  token,
  onSuccess,
  onInvalidToken,
}: {
  uidb64: string;
  token: string;
  onSuccess: () => void;
  onInvalidToken: () => void;
}) {
  const confirm = useConfirmPasswordResetMutation();
  const formRef = useRef<HTMLFormElement>(null);
  const firstInputRef = useFocusOnMount<HTMLInputElement>();
  const form = useForm<ResetPasswordConfirmRequest>({
    initialValues: { uidb64, token, newPassword: '', newPasswordConfirm: '' },
    validate: schemaResolver(resetPasswordConfirmRequestSchema, { sync: true }),
  });

  const handleSubmit = form.onSubmit(
    async (values) => {
      try {
        await confirm.mutateAsync(resetPasswordConfirmRequestSchema.parse({ ...values, uidb64, token }));
        onSuccess();
      } catch (error) {
        if (isInvalidToken(error)) {
          onInvalidToken();
          return;
        }
        showServerFieldErrors(form, error, fields, formRef.current);
      }
    },
    () => focusFirstInvalid(formRef.current),
  );

  return (
    <form ref={formRef} onSubmit={handleSubmit} noValidate aria-label="Choose a new password">
      <Stack gap="md">
        <FormErrorAlert
          error={isInvalidToken(confirm.error) ? null : confirm.error}
          labels={labels}
          inlineFields={fields}
        />
        <NewPasswordFields
          form={form}
          fields={{ password: 'newPassword', confirm: 'newPasswordConfirm' }}
          labels={{ password: labels.newPassword, confirm: labels.newPasswordConfirm }}
          passwordRef={firstInputRef}
        />
        <Button type="submit" loading={confirm.isPending} fullWidth>
          Set new password
        </Button>
      </Stack>
    </form>
  );
}
