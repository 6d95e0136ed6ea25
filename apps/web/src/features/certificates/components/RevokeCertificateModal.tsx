import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { certificateRevokeRequestSchema } from '@veriform/contracts';
import { useRef } from 'react';
import { FormErrorAlert } from '../../../components/form/FormErrorAlert';
import { focusFirstInvalid, showServerFieldErrors } from '../../../components/form/server-errors';
import { notify } from '../../../lib/notify';
import { useRevokeCertificateMutation } from '../api';

const labels = { reason: 'Reason' } as const;
const fields = Object.keys(labels);

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
  const formRef = useRef<HTMLFormElement>(null);
  const form = useForm({
    initialValues: { reason: '' },
    validate: schemaResolver(certificateRevokeRequestSchema, { sync: true }),
  });

  const close = () => {
    if (revoke.isPending) return;
    form.reset();
    revoke.reset();
    onClose();
  };

  const handleSubmit = form.onSubmit(
    async (values) => {
      if (revoke.isPending) return;
      try {
        await revoke.mutateAsync(certificateRevokeRequestSchema.parse(values).reason);
        notify.success('Certificate revoked', 'Its check page and every check of its file now say so.');
        form.reset();
        revoke.reset();
        onClose();
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
      title="Revoke certificate"
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <form ref={formRef} onSubmit={handleSubmit} noValidate aria-label="Revoke certificate">
        <Stack gap="md">
          <Text size="sm">
            Anyone who checks this certificate, on its public page or with its file, will see that it was
            revoked, with the date and your reason. It cannot be undone.
          </Text>
          <FormErrorAlert error={revoke.error} labels={labels} inlineFields={fields} />
          <Textarea
            label={labels.reason}
            description="Shown publicly with the certificate."
            required
            rows={3}
            maxLength={500}
            data-autofocus
            {...form.getInputProps('reason')}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} disabled={revoke.isPending}>
              Cancel
            </Button>
            <Button type="submit" color="red" loading={revoke.isPending}>
              Revoke certificate
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
