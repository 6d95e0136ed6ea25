import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { type AccountDomain, accountDomainFormSchema } from '@veriform/contracts';
import { useRef } from 'react';
import { FormErrorAlert } from '../../../components/form/FormErrorAlert';
import { focusFirstInvalid, showServerFieldErrors } from '../../../components/form/server-errors';
import { useAddDomainMutation } from '../api';

const labels = { domain: 'Domain' } as const;
const fields = Object.keys(labels);

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
  const formRef = useRef<HTMLFormElement>(null);
  const form = useForm({
    initialValues: { domain: '' },
    validate: schemaResolver(accountDomainFormSchema, { sync: true }),
  });

  const close = () => {
    if (add.isPending) return;
    form.reset();
    add.reset();
    onClose();
  };

  const handleSubmit = form.onSubmit(
    async (values) => {
      if (add.isPending) return;
      try {
        const domain = await add.mutateAsync(values.domain);
        form.reset();
        add.reset();
        onAdded(domain);
      } catch (error) {
        showServerFieldErrors(form, error, fields, formRef.current);
      }
    },
    () => focusFirstInvalid(formRef.current),
  );

  return (
    <Modal
      opened={opened}
      onClose={close}
      title="Add domain"
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <form ref={formRef} onSubmit={handleSubmit} noValidate aria-label="Add a domain">
        <Stack gap="md">
          <FormErrorAlert error={add.error} labels={labels} inlineFields={fields} />
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
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} disabled={add.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={add.isPending}>
              Add domain
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
