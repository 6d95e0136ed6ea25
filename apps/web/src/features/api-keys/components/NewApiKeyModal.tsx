import { Alert, Modal, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { CreatedApiKey } from '@veriform/contracts';
import { SecretField } from '../../../components/form/SecretField';
import { modeLabels } from './ApiKeyList';

export const SHOWN_ONCE_TEXT = 'Copy this key now. You won’t be able to see it again.';

/**
 * The secret of a key just created, shown this once (the server keeps only its hash). The key lives in the page's
 * state while this is open; Done drops it. Escape and a click outside do nothing here: a slip would lose the key, so
 * Done is the one way out (reached by Tab like any button).
 */
export function NewApiKeyModal({ created, onDone }: { created: CreatedApiKey | null; onDone: () => void }) {
  return (
    <Modal
      opened={created !== null}
      onClose={onDone}
      title="Your new API key"
      centered
      size="lg"
      withCloseButton={false}
      closeOnEscape={false}
      closeOnClickOutside={false}
    >
      {created && (
        <Stack gap="md">
          <Alert
            color="orange"
            icon={<IconAlertTriangle aria-hidden="true" />}
            styles={{ message: { color: 'var(--mantine-color-text)' } }}
          >
            <Text size="sm" fw={600}>
              {SHOWN_ONCE_TEXT}
            </Text>
          </Alert>
          <Text size="sm">
            {modeLabels[created.mode]} key “{created.name}”, with {created.scopes.join(', ')}. Send it as{' '}
            <Text span ff="monospace" size="sm">
              Authorization: Bearer …
            </Text>
            ; keep it out of browsers and source code.
          </Text>
          <SecretField
            label="Secret key"
            secret={created.key}
            copyLabel="Copy key"
            copiedStatus="API key copied"
            onDone={onDone}
          />
        </Stack>
      )}
    </Modal>
  );
}
