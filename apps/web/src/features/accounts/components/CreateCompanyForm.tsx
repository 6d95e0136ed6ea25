import { Button, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { type CreateAccountRequest, createAccountRequestSchema } from '@veriform/contracts';
import { useRef } from 'react';
import { FormErrorAlert } from '../../../components/form/FormErrorAlert';
import { focusFirstInvalid, showServerFieldErrors } from '../../../components/form/server-errors';
import { useFocusOnMount } from '../../../lib/use-focus-on-mount';
import { useCreateAccountMutation } from '../api';

const labels = { displayName: 'Company name' } as const;
const fields = Object.keys(labels);

/** Names a new company account; the user becomes its owner and it becomes the current account (SPEC §4). */
export function CreateCompanyForm({ onSuccess }: { onSuccess: () => void }) {
  const create = useCreateAccountMutation();
  const formRef = useRef<HTMLFormElement>(null);
  const firstInputRef = useFocusOnMount<HTMLInputElement>();
  const form = useForm<CreateAccountRequest>({
    initialValues: { displayName: '' },
    validate: schemaResolver(createAccountRequestSchema, { sync: true }),
  });

  const handleSubmit = form.onSubmit(
    async (values) => {
      try {
        await create.mutateAsync(createAccountRequestSchema.parse(values));
        onSuccess();
      } catch (error) {
        showServerFieldErrors(form, error, fields, formRef.current);
      }
    },
    () => focusFirstInvalid(formRef.current),
  );

  return (
    <form ref={formRef} onSubmit={handleSubmit} noValidate aria-label="Create your company">
      <Stack gap="md">
        <FormErrorAlert error={create.error} labels={labels} inlineFields={fields} />
        <TextInput
          ref={firstInputRef}
          label={labels.displayName}
          description="The name your team and your customers will see."
          autoComplete="organization"
          required
          maxLength={100}
          {...form.getInputProps('displayName')}
        />
        <Button type="submit" loading={create.isPending} fullWidth>
          Create company
        </Button>
      </Stack>
    </form>
  );
}
