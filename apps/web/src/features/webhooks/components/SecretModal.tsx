import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useEffect } from 'react';
import { SecretField } from '../../../components/form/SecretField';
import { errorDisplayText } from '../../../lib/error-text';
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
          <Alert
            color="red"
            icon={<IconAlertCircle aria-hidden="true" />}
            role="alert"
            title="The secret could not be read"
          >
            <Group gap="sm" wrap="wrap">
              <span>{errorDisplayText(reveal.error)}</span>
              <Button variant="default" size="compact-sm" onClick={() => mutate(endpointId)}>
                Try again
              </Button>
            </Group>
          </Alert>
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
