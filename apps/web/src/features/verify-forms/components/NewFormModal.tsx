import { TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { createVerifyFormRequestSchema, type Language } from '@veriform/contracts';
import { FormModal } from '../../../components/form/FormModal';
import { LabelledAutocomplete } from '../../../components/form/LabelledFields';
import { LabelledSelect } from '../../../components/form/LabelledSelect';
import { notify } from '../../../lib/notify';
import { useServices } from '../../../lib/services';
import { formCategoriesQueryOptions, useCreateVerifyFormMutation } from '../api';
import { languageOptions } from '../languages';

const labels = { name: 'Name', language: 'Language', category: 'Category' };

type NewFormValues = { name: string; language: Language; category: string };
const emptyValues: NewFormValues = { name: '', language: 'en', category: '' };

/** "New form": name, language and category; Create form opens the new form's page. */
export function NewFormModal({
  opened,
  onClose,
  accountId,
}: {
  opened: boolean;
  onClose: () => void;
  accountId: number;
}) {
  const { api } = useServices();
  const navigate = useNavigate();
  const create = useCreateVerifyFormMutation();
  const { data: categories = [] } = useQuery({
    ...formCategoriesQueryOptions(api, accountId),
    enabled: opened,
  });
  const form = useForm<NewFormValues>({
    initialValues: emptyValues,
    validate: (values) => {
      const parsed = createVerifyFormRequestSchema.safeParse({ ...values, account: accountId });
      if (parsed.success) return {};
      const issue = parsed.error.issues[0];
      return { name: issue?.path[0] === 'name' ? 'Required' : (issue?.message ?? 'Invalid') };
    },
  });

  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title="New form"
      form={form}
      mutation={create}
      labels={labels}
      inlineFields={['name']}
      submit={(values) =>
        create.mutateAsync(createVerifyFormRequestSchema.parse({ ...values, account: accountId }))
      }
      onDone={(created) => {
        notify.success(
          'Form created',
          `${created.name} is ready. Activate it when you want it to take answers.`,
        );
        onClose();
        void navigate({ to: '/forms/$verifyFormId', params: { verifyFormId: String(created.id) } });
      }}
      submitLabel="Create form"
    >
      <TextInput label="Name" required maxLength={120} data-autofocus {...form.getInputProps('name')} />
      <LabelledSelect
        label="Language"
        data={languageOptions}
        allowDeselect={false}
        {...form.getInputProps('language')}
      />
      <LabelledAutocomplete
        label="Category"
        data={categories}
        maxLength={60}
        placeholder="For example Onboarding"
        {...form.getInputProps('category')}
      />
    </FormModal>
  );
}
