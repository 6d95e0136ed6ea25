import { TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { type AccountDomain, accountDomainFormSchema } from '@veriform/contracts';
import { FormModal } from '../../../components/form/FormModal';
import { useAddDomainMutation } from '../api';

const labels = { domain: 'Domain' } as const;

/**
 * Owners: add a domain of the company. The contract's rules are checked first (no scheme, path, port or IP address);
 * the server's refusals (already listed, too many) show beside the field or above the form.
 */
export function AddDomainModal({
  accountId,
  opened,
  onClose,
  onAdded,
}: {
  accountId: number;
  opened: boolean;
  onClose: () => void;
  onAdded: (domain: AccountDomain) => void;
}) {
  const add = useAddDomainMutation(accountId);
  const form = useForm({
    initialValues: { domain: '' },
    validate: schemaResolver(accountDomainFormSchema, { sync: true }),
  });

  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title="Add domain"
      formLabel="Add a domain"
      form={form}
      mutation={add}
      labels={labels}
      submit={(values) => add.mutateAsync(values.domain)}
      onDone={onAdded}
      submitLabel="Add domain"
    >
      <TextInput
        label={labels.domain}
        description="The domain of the company’s website, such as example.com or shop.example.com"
        placeholder="example.com"
        autoComplete="off"
        autoCapitalize="off"
        spellCheck={false}
        required
        maxLength={253}
        data-autofocus
        {...form.getInputProps('domain')}
      />
    </FormModal>
  );
}
