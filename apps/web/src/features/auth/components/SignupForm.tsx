import { Button, Group, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { type SignupRequest, signupRequestSchema } from '@veriform/contracts';
import { useRef } from 'react';
import { FormErrorAlert } from '../../../components/form/FormErrorAlert';
import { NewPasswordFields } from '../../../components/form/NewPasswordFields';
import { focusFirstInvalid, showServerFieldErrors } from '../../../components/form/server-errors';
import { useFocusOnMount } from '../../../lib/use-focus-on-mount';
import { useSignupMutation } from '../api';

export const signupLabels = {
  firstName: 'First name',
  lastName: 'Last name',
  email: 'Email',
  password: 'Password',
  passwordConfirm: 'Confirm password',
} as const;
const fields = Object.keys(signupLabels);

interface SignupFormProps {
  onSuccess: () => void;
  /** Filled in beforehand (the invited address, when signing up to accept an invitation). */
  initialEmail?: string;
  /** The address cannot be changed (an invitation is for that address only). */
  emailReadOnly?: boolean;
}

export function SignupForm({ onSuccess, initialEmail = '', emailReadOnly = false }: SignupFormProps) {
  const signup = useSignupMutation();
  const formRef = useRef<HTMLFormElement>(null);
  const firstInputRef = useFocusOnMount<HTMLInputElement>();
  const form = useForm<SignupRequest>({
    initialValues: { firstName: '', lastName: '', email: initialEmail, password: '', passwordConfirm: '' },
    validate: schemaResolver(signupRequestSchema, { sync: true }),
  });

  const handleSubmit = form.onSubmit(
    async (values) => {
      try {
        await signup.mutateAsync(signupRequestSchema.parse(values));
        onSuccess();
      } catch (error) {
        showServerFieldErrors(form, error, fields, formRef.current);
      }
    },
    () => focusFirstInvalid(formRef.current),
  );

  return (
    <form ref={formRef} onSubmit={handleSubmit} noValidate aria-label="Sign up">
      <Stack gap="md">
        <FormErrorAlert error={signup.error} labels={signupLabels} inlineFields={fields} />
        <Group grow align="flex-start" gap="sm" wrap="wrap">
          <TextInput
            ref={firstInputRef}
            label={signupLabels.firstName}
            autoComplete="given-name"
            required
            miw={140}
            {...form.getInputProps('firstName')}
          />
          <TextInput
            label={signupLabels.lastName}
            autoComplete="family-name"
            required
            miw={140}
            {...form.getInputProps('lastName')}
          />
        </Group>
        <TextInput
          label={signupLabels.email}
          type="email"
          inputMode="email"
          autoComplete="email"
          required
          readOnly={emailReadOnly}
          variant={emailReadOnly ? 'filled' : 'default'}
          description={emailReadOnly ? 'The invitation was sent to this address.' : undefined}
          {...form.getInputProps('email')}
        />
        <NewPasswordFields
          form={form}
          fields={{ password: 'password', confirm: 'passwordConfirm' }}
          labels={{ password: signupLabels.password, confirm: signupLabels.passwordConfirm }}
        />
        <Button type="submit" loading={signup.isPending} fullWidth>
          Sign up
        </Button>
      </Stack>
    </form>
  );
}
