import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { createVerifyFormRequestSchema } from '@veriform/contracts';
import { FormModal } from '../../../components/form/FormModal';
import { notify } from '../../../lib/notify';
import { useServices } from '../../../lib/services';
import { formCategoriesQueryOptions, useCreateVerifyFormMutation } from '../api';
import { FormDetailsFields, type FormDetailsValues, formDetails } from './FormDetailsFields';

const emptyValues: FormDetailsValues = { name: '', language: 'en', category: '' };

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
  const form = useForm<FormDetailsValues>({
    initialValues: emptyValues,
    validate: (values) =>
      formDetails.errors(createVerifyFormRequestSchema.safeParse({ ...values, account: accountId })),
  });

  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title="New form"
      form={form}
      mutation={create}
      labels={formDetails.labels}
      inlineFields={formDetails.inlineFields}
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
      <FormDetailsFields form={form} categories={categories} autoFocus placeholder="For example Onboarding" />
    </FormModal>
  );
}
