import { NativeSelect, Stack, Textarea, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import {
  MAX_REVOCATION_NOTE_LENGTH,
  type Revocation,
  type RevocationVia,
  recordRevocationRequestSchema,
  revocationVias,
} from '@veriform/contracts';
import { FormModal } from '../../../components/form/FormModal';
import { useRecordRevocationMutation } from '../api';
import { revocationViaLabels } from '../labels';

const labels = {
  phone: 'Phone number',
  email: 'E-mail address',
  via: 'How it reached you',
  note: 'Note',
} as const;

type Values = { phone: string; email: string; via: RevocationVia; note: string };

const viaOptions = revocationVias.map((via) => ({ value: via, label: revocationViaLabels[via] }));

/**
 * A revocation the customer received elsewhere (a call, an e-mail, a letter), recorded by a member (issue #35): the
 * number or the address (at least one), how it came, a note. It is open at once, its deadline counted from now.
 * `initial` prefills the number or address (a verification's detail opens it for its own number).
 */
export function RecordRevocationModal({
  accountId,
  opened,
  onClose,
  onRecorded,
  initial,
}: {
  accountId: number;
  opened: boolean;
  onClose: () => void;
  onRecorded: (revocation: Revocation) => void;
  initial?: { phone?: string; email?: string };
}) {
  const record = useRecordRevocationMutation(accountId);
  const form = useForm<Values>({
    initialValues: { phone: initial?.phone ?? '', email: initial?.email ?? '', via: 'phone_call', note: '' },
    // Empty fields are left out: the contract asks for the number or the address.
    validate: (values) =>
      schemaResolver(recordRevocationRequestSchema, { sync: true })({
        ...values,
        phone: values.phone.trim() || undefined,
        email: values.email.trim() || undefined,
      }),
  });

  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title="Record a revocation"
      formLabel="Record a revocation of consent"
      form={form}
      mutation={record}
      labels={labels}
      submit={(values) =>
        record.mutateAsync({
          phone: values.phone.trim() || undefined,
          email: values.email.trim() || undefined,
          via: values.via,
          note: values.note,
        })
      }
      onDone={onRecorded}
      submitLabel="Record revocation"
      intro="A consumer may revoke consent by any reasonable means. It must be honoured within 10 business days."
    >
      <Stack gap="sm">
        <TextInput
          label={labels.phone}
          description="With its country code if it is not a US number"
          autoComplete="off"
          inputMode="tel"
          maxLength={32}
          data-autofocus
          {...form.getInputProps('phone')}
        />
        <TextInput
          label={labels.email}
          type="email"
          autoComplete="off"
          maxLength={254}
          {...form.getInputProps('email')}
        />
        <NativeSelect label={labels.via} data={viaOptions} {...form.getInputProps('via')} />
        <Textarea
          label={labels.note}
          description="What the consumer said, who took it"
          minRows={3}
          maxLength={MAX_REVOCATION_NOTE_LENGTH}
          {...form.getInputProps('note')}
        />
      </Stack>
    </FormModal>
  );
}
