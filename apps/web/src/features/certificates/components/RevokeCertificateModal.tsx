import { Text, Textarea } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { certificateRevokeRequestSchema } from '@veriform/contracts';
import { FormModal } from '../../../components/form/FormModal';
import { notify } from '../../../lib/notify';
import { useRevokeCertificateMutation } from '../api';

const labels = { reason: 'Reason' } as const;

/**
 * Owners: revoke a verification's certificate, once, with a reason. The certificate stays signed (it still checks as
 * authentic); every check of it says it was revoked, when, and why.
 */
export function RevokeCertificateModal({
  opened,
  onClose,
  accountId,
  verificationId,
}: {
  opened: boolean;
  onClose: () => void;
  accountId: number;
  verificationId: number;
}) {
  const revoke = useRevokeCertificateMutation(accountId, verificationId);
  const form = useForm({
    initialValues: { reason: '' },
    validate: schemaResolver(certificateRevokeRequestSchema, { sync: true }),
  });

  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title="Revoke certificate"
      formLabel="Revoke certificate"
      form={form}
      mutation={revoke}
      labels={labels}
      submit={(values) => revoke.mutateAsync(certificateRevokeRequestSchema.parse(values).reason)}
      onDone={() => {
        notify.success('Certificate revoked', 'Its check page and every check of its file now say so.');
        onClose();
      }}
      submitLabel="Revoke certificate"
      submitColor="red"
      intro={
        <Text size="sm">
          Anyone who checks this certificate, on its public page or with its file, will see that it was
          revoked, with the date and your reason. It cannot be undone.
        </Text>
      }
    >
      <Textarea
        label={labels.reason}
        description="Shown publicly with the certificate."
        required
        rows={3}
        maxLength={500}
        data-autofocus
        {...form.getInputProps('reason')}
      />
    </FormModal>
  );
}
