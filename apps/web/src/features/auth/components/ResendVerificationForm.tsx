import { Button, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import {
  type ResendVerificationEmailRequest,
  resendVerificationEmailRequestSchema,
} from '@veriform/contracts';
import { useRef } from 'react';
import { FormErrorAlert } from '../../../components/form/FormErrorAlert';
import { focusFirstInvalid, showServerFieldErrors } from '../../../components/form/server-errors';
import { useFocusOnMount } from '../../../lib/use-focus-on-mount';
import { useResendVerificationEmailMutation } from '../api';

const labels = { email: 'Email' } as const;
const fields = Object.keys(labels);

/** Asks for a new verification link for any address (the answer never says whether it exists). */
export function ResendVerificationForm({
  initialEmail,
  onSuccess,
}: {
  initialEmail: string;
  onSuccess: (email: string) => void;
}) {
  const resend = useResendVerificationEmailMutation();
  const formRef = useRef<HTMLFormElement>(null);
  const firstInputRef = useFocusOnMount<HTMLInputElement>();
  const form = useForm<ResendVerificationEmailRequest>({
    initialValues: { email: initialEmail },
    validate: schemaResolver(resendVerificationEmailRequestSchema, { sync: true }),
  });

  const handleSubmit = form.onSubmit(
    async (values) => {
      const body = resendVerificationEmailRequestSchema.parse(values);
      try {
        await resend.mutateAsync(body);
        onSuccess(body.email);
      } catch (error) {
        showServerFieldErrors(form, error, fields, formRef.current);
      }
    },
    () => focusFirstInvalid(formRef.current),
  );

  return (
    <form ref={formRef} onSubmit={handleSubmit} noValidate aria-label="Request a new verification link">
      <Stack gap="md">
        <FormErrorAlert error={resend.error} labels={labels} inlineFields={fields} />
        <TextInput
          ref={firstInputRef}
          label={labels.email}
          type="email"
          inputMode="email"
          autoComplete="email"
          required
          {...form.getInputProps('email')}
        />
        <Button type="submit" loading={resend.isPending} fullWidth>
          Send a new link
        </Button>
      </Stack>
    </form>
  );
}
