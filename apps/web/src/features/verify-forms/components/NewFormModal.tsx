import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { createVerifyFormRequestSchema, type Language } from '@veriform/contracts';
import { type FormEvent, useState } from 'react';
import { FormErrorAlert } from '../../../components/form/FormErrorAlert';
import { LabelledAutocomplete } from '../../../components/form/LabelledFields';
import { LabelledSelect } from '../../../components/form/LabelledSelect';
import { ApiValidationError } from '../../../lib/api-client';
import { notify } from '../../../lib/notify';
import { useServices } from '../../../lib/services';
import { formCategoriesQueryOptions, useCreateVerifyFormMutation } from '../api';
import { languageOptions } from '../languages';

const labels = { name: 'Name', language: 'Language', category: 'Category' };

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
  const [name, setName] = useState('');
  const [language, setLanguage] = useState<Language>('en');
  const [category, setCategory] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);

  const close = () => {
    if (create.isPending) return;
    setName('');
    setLanguage('en');
    setCategory('');
    setNameError(null);
    create.reset();
    onClose();
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (create.isPending) return;
    const parsed = createVerifyFormRequestSchema.safeParse({ name, account: accountId, language, category });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      setNameError(issue?.path[0] === 'name' ? 'Required' : (issue?.message ?? 'Invalid'));
      return;
    }
    setNameError(null);
    create.mutate(parsed.data, {
      onSuccess: (form) => {
        notify.success(
          'Form created',
          `${form.name} is ready. Activate it when you want it to take answers.`,
        );
        close();
        void navigate({ to: '/forms/$verifyFormId', params: { verifyFormId: String(form.id) } });
      },
      onError: (error) => {
        if (error instanceof ApiValidationError && error.fieldErrors.name)
          setNameError(error.fieldErrors.name);
      },
    });
  };

  return (
    <Modal
      opened={opened}
      onClose={close}
      title="New form"
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <FormErrorAlert error={create.error} labels={labels} inlineFields={['name']} />
          <TextInput
            label="Name"
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            error={nameError}
            required
            maxLength={120}
            data-autofocus
          />
          <LabelledSelect
            label="Language"
            data={languageOptions}
            value={language}
            onChange={(value) => value && setLanguage(value as Language)}
            allowDeselect={false}
          />
          <LabelledAutocomplete
            label="Category"
            data={categories}
            value={category}
            onChange={setCategory}
            maxLength={60}
            placeholder="For example Onboarding"
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} disabled={create.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Create form
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
