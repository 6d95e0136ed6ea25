import { Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { type LoginRequest, loginRequestSchema } from '@veriform/contracts';
import { useRef } from 'react';
import { FormErrorAlert } from '../../../components/form/FormErrorAlert';
import { focusFirstInvalid, showServerFieldErrors } from '../../../components/form/server-errors';
import { AnchorLink } from '../../../components/links';
import { useFocusOnMount } from '../../../lib/use-focus-on-mount';
import { useLoginMutation } from '../api';

const labels = { email: 'Email', password: 'Password' } as const;
const fields = Object.keys(labels);

interface LoginFormProps {
  onSuccess: () => void;
  /** Filled in beforehand (the invited address, when logging in to accept an invitation). */
  initialEmail?: string;
}

export function LoginForm({ onSuccess, initialEmail = '' }: LoginFormProps) {
  const login = useLoginMutation();
  const formRef = useRef<HTMLFormElement>(null);
  const firstInputRef = useFocusOnMount<HTMLInputElement>();
  const form = useForm<LoginRequest>({
    initialValues: { email: initialEmail, password: '' },
    validate: schemaResolver(loginRequestSchema, { sync: true }),
  });

  const handleSubmit = form.onSubmit(
    async (values) => {
      try {
        await login.mutateAsync(loginRequestSchema.parse(values));
        onSuccess();
      } catch (error) {
        showServerFieldErrors(form, error, fields, formRef.current);
      }
    },
    () => focusFirstInvalid(formRef.current),
  );

  return (
    <form ref={formRef} onSubmit={handleSubmit} noValidate aria-label="Log in">
      <Stack gap="md">
        <FormErrorAlert error={login.error} labels={labels} inlineFields={fields} />
        <TextInput
          ref={firstInputRef}
          label={labels.email}
          type="email"
          autoComplete="email"
          inputMode="email"
          required
          {...form.getInputProps('email')}
        />
        <PasswordInput
          label={labels.password}
          autoComplete="current-password"
          required
          {...form.getInputProps('password')}
          aria-invalid={Boolean(form.errors.password)}
        />
        <AnchorLink to="/auth/reset-password/" size="sm" style={{ alignSelf: 'flex-end' }}>
          Forgot password?
        </AnchorLink>
        <Button type="submit" loading={login.isPending} fullWidth>
          Log in
        </Button>
      </Stack>
    </form>
  );
}
