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
import { IconAlertTriangle, IconCheck, IconCopy } from '@tabler/icons-react';
import type { CreatedApiKey } from '@veriform/contracts';
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
          <Textarea
            label="Secret key"
            value={created.key}
            readOnly
            // Two lines hold the whole key at phone width too (Mantine's autosize needs APIs jsdom lacks).
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
            <CopyButton value={created.key} timeout={2000}>
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
                    data-autofocus
                  >
                    {copied ? 'Copied' : 'Copy key'}
                  </Button>
                  {/* The button's new words are for the eyes; screen readers hear this (the region exists first). */}
                  <VisuallyHidden role="status" aria-live="polite">
                    {copied ? 'API key copied' : ''}
                  </VisuallyHidden>
                </>
              )}
            </CopyButton>
            <Button onClick={onDone}>Done</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
