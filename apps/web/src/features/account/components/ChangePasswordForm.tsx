import { Button, Group, PasswordInput, Stack } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { type ChangePasswordRequest, changePasswordRequestSchema } from '@veriform/contracts';
import { useRef } from 'react';
import { FormErrorAlert } from '../../../components/form/FormErrorAlert';
import { NewPasswordFields } from '../../../components/form/NewPasswordFields';
import { focusFirstInvalid, showServerFieldErrors } from '../../../components/form/server-errors';
import { AnchorLink } from '../../../components/links';
import { notify } from '../../../lib/notify';
import { useChangePasswordMutation } from '../../auth/api';

export const changePasswordLabels = {
  previousPassword: 'Current password',
  newPassword: 'New password',
  newPasswordConfirm: 'Confirm new password',
} as const;
const fields = Object.keys(changePasswordLabels);
const emptyValues: ChangePasswordRequest = { previousPassword: '', newPassword: '', newPasswordConfirm: '' };

/** SPEC §2 Reset Password card: current password, new password with the live checklist, confirmation. */
export function ChangePasswordForm() {
  const change = useChangePasswordMutation();
  const formRef = useRef<HTMLFormElement>(null);
  const form = useForm<ChangePasswordRequest>({
    initialValues: emptyValues,
    validate: schemaResolver(changePasswordRequestSchema, { sync: true }),
  });

  const handleSubmit = form.onSubmit(
    async (values) => {
      try {
        await change.mutateAsync(changePasswordRequestSchema.parse(values));
        form.reset();
        change.reset();
        notify.success('Updated password', 'Your password has been updated successfully.');
      } catch (error) {
        showServerFieldErrors(form, error, fields, formRef.current);
      }
    },
    () => focusFirstInvalid(formRef.current),
  );

  return (
    <form ref={formRef} onSubmit={handleSubmit} noValidate>
      <Stack gap="md">
        <FormErrorAlert error={change.error} labels={changePasswordLabels} inlineFields={fields} />
        <PasswordInput
          label={changePasswordLabels.previousPassword}
          autoComplete="current-password"
          required
          {...form.getInputProps('previousPassword')}
          aria-invalid={Boolean(form.errors.previousPassword)}
        />
        <NewPasswordFields
          form={form}
          fields={{ password: 'newPassword', confirm: 'newPasswordConfirm' }}
          labels={{
            password: changePasswordLabels.newPassword,
            confirm: changePasswordLabels.newPasswordConfirm,
          }}
        />
        <Group justify="space-between" wrap="wrap" gap="sm">
          <AnchorLink to="/auth/reset-password/" size="sm">
            Forgot password?
          </AnchorLink>
          <Button type="submit" loading={change.isPending}>
            Update password
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
