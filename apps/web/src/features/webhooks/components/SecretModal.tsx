import { Modal, Stack, Text } from '@mantine/core';
import { useEffect } from 'react';
import { RetryAlert } from '../../../components/errors/RetryAlert';
import { SecretField } from '../../../components/form/SecretField';
import { useRevealWebhookSecretMutation } from '../api';

/**
 * An endpoint's signing secret, read when the dialog opens (each reading is audited) and dropped when it closes: it
 * lives in this dialog only, never in the query cache.
 */
export function SecretModal({ endpointId, onClose }: { endpointId: number; onClose: () => void }) {
  const reveal = useRevealWebhookSecretMutation();
  const { mutate } = reveal;
  useEffect(() => mutate(endpointId), [mutate, endpointId]);
  const secret = reveal.data?.secret;

  return (
    <Modal
      opened
      onClose={onClose}
      title="Signing secret"
      centered
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Stack gap="md">
        <Text size="sm">
          Receivers check each delivery’s <code>webhook-signature</code> with this secret. Keep it on your
          server, out of browsers and source code.
        </Text>
        {reveal.isError && (
          <RetryAlert
            title="The secret could not be read"
            error={reveal.error}
            onRetry={() => mutate(endpointId)}
          />
        )}
        <SecretField
          label="Secret"
          secret={secret ?? ''}
          loading={reveal.isPending}
          copyLabel="Copy secret"
          copiedStatus="Secret copied"
          onDone={onClose}
        />
      </Stack>
    </Modal>
  );
}
