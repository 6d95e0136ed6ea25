import {
  Alert,
  Button,
  CopyButton,
  Group,
  Modal,
  Stack,
  Text,
  Textarea,
  VisuallyHidden,
} from '@mantine/core';
import { IconAlertCircle, IconCheck, IconCopy } from '@tabler/icons-react';
import { useEffect } from 'react';
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
        <Textarea
          label="Secret"
          value={secret ?? ''}
          placeholder={reveal.isPending ? 'Loading…' : undefined}
          aria-busy={reveal.isPending}
          readOnly
          rows={2}
          onFocus={(event) => event.currentTarget.select()}
          styles={{
            input: {
              fontFamily: 'var(--mantine-font-family-monospace)',
              wordBreak: 'break-all',
              resize: 'none',
            },
          }}
        />
        <Group justify="space-between" gap="sm">
          <CopyButton value={secret ?? ''} timeout={2000}>
            {({ copied, copy }) => (
              <>
                <Button
                  variant="light"
                  color={copied ? 'teal' : undefined}
                  leftSection={
                    copied ? (
                      <IconCheck size={16} aria-hidden="true" />
                    ) : (
                      <IconCopy size={16} aria-hidden="true" />
                    )
                  }
                  onClick={copy}
                  disabled={!secret}
                  data-autofocus
                >
                  {copied ? 'Copied' : 'Copy secret'}
                </Button>
                <VisuallyHidden role="status" aria-live="polite">
                  {copied ? 'Secret copied' : ''}
                </VisuallyHidden>
              </>
            )}
          </CopyButton>
          <Button onClick={onClose}>Done</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
