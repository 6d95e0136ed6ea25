import { Button, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { type ResetPasswordRequest, resetPasswordRequestSchema } from '@veriform/contracts';
import { useRef } from 'react';
import { FormErrorAlert } from '../../../components/form/FormErrorAlert';
import { focusFirstInvalid, showServerFieldErrors } from '../../../components/form/server-errors';
import { useFocusOnMount } from '../../../lib/use-focus-on-mount';
import { useRequestPasswordResetMutation } from '../api';

const labels = { email: 'Email' } as const;
const fields = Object.keys(labels);

/** Asks for a password-reset link; the answer is the same whether or not an account uses the address. */
export function ResetPasswordRequestForm({
  initialEmail,
  onSuccess,
}: {
  initialEmail: string;
  onSuccess: (email: string) => void;
}) {
  const reset = useRequestPasswordResetMutation();
  const formRef = useRef<HTMLFormElement>(null);
  const firstInputRef = useFocusOnMount<HTMLInputElement>();
  const form = useForm<ResetPasswordRequest>({
    initialValues: { email: initialEmail },
    validate: schemaResolver(resetPasswordRequestSchema, { sync: true }),
  });

  const handleSubmit = form.onSubmit(
    async (values) => {
      const body = resetPasswordRequestSchema.parse(values);
      try {
        await reset.mutateAsync(body);
        onSuccess(body.email);
      } catch (error) {
        showServerFieldErrors(form, error, fields, formRef.current);
      }
    },
    () => focusFirstInvalid(formRef.current),
  );

  return (
    <form ref={formRef} onSubmit={handleSubmit} noValidate aria-label="Reset your password">
      <Stack gap="md">
        <FormErrorAlert error={reset.error} labels={labels} inlineFields={fields} />
        <TextInput
          ref={firstInputRef}
          label={labels.email}
          type="email"
          inputMode="email"
          autoComplete="email"
          required
          {...form.getInputProps('email')}
        />
        <Button type="submit" loading={reset.isPending} fullWidth>
          Send reset link
        </Button>
      </Stack>
    </form>
  );
}
