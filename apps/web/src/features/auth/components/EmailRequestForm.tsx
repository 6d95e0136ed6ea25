import { Button, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { type ResetPasswordRequest, resetPasswordRequestSchema } from '@veriform/contracts';
import { useRef } from 'react';
import { FormErrorAlert } from '../../../components/form/FormErrorAlert';
import { focusFirstInvalid, showServerFieldErrors } from '../../../components/form/server-errors';
import { useFocusOnMount } from '../../../lib/use-focus-on-mount';

const labels = { email: 'Email' } as const;
const fields = Object.keys(labels);

/** The part of a mutation this form needs: both e-mail-only requests take `{email}` and answer the same either way. */
type EmailRequestMutation = {
  mutateAsync: (body: ResetPasswordRequest) => Promise<unknown>;
  error: unknown;
  isPending: boolean;
};

/**
 * One e-mail field and a submit button, for the requests whose answer never says whether the address has an account
 * (a new verification link, a password-reset link).
 */
export function EmailRequestForm({
  mutation,
  formLabel,
  submitLabel,
  initialEmail,
  onSuccess,
}: {
  mutation: EmailRequestMutation;
  formLabel: string;
  submitLabel: string;
  initialEmail: string;
  onSuccess: (email: string) => void;
}) {
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
        await mutation.mutateAsync(body);
        onSuccess(body.email);
      } catch (error) {
        showServerFieldErrors(form, error, fields, formRef.current);
      }
    },
    () => focusFirstInvalid(formRef.current),
  );

  return (
    <form ref={formRef} onSubmit={handleSubmit} noValidate aria-label={formLabel}>
      <Stack gap="md">
        <FormErrorAlert error={mutation.error} labels={labels} inlineFields={fields} />
        <TextInput
          ref={firstInputRef}
          label={labels.email}
          type="email"
          inputMode="email"
          autoComplete="email"
          required
          {...form.getInputProps('email')}
        />
        <Button type="submit" loading={mutation.isPending} fullWidth>
          {submitLabel}
        </Button>
      </Stack>
    </form>
  );
}
