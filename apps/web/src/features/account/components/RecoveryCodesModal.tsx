import { Button, Checkbox, Group, List, Modal, Stack, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { CopySecretButton } from '../../../components/form/SecretField';
import { saveBlob } from '../../../lib/save-blob';

export const RECOVERY_CODES_FILENAME = 'veriform-recovery-codes.txt';

/** The file the Download button saves: the codes one a line, with what they are for. */
export function recoveryCodesFile(codes: readonly string[]): string {
  return [
    'Veriform recovery codes',
    'Each code signs you in once when you cannot use your authenticator app or passkey.',
    '',
    ...codes,
    '',
  ].join('\n');
}

/**
 * The recovery codes, shown once (issue #38): they cannot be read again. Copy and Download take them away; Done waits
 * until the person says they saved them, and the dialog cannot be closed another way.
 */
export function RecoveryCodesModal({ codes, onDone }: { codes: readonly string[]; onDone: () => void }) {
  const [saved, setSaved] = useState(false);
  const text = codes.join('\n');
  return (
    <Modal
      opened
      onClose={() => saved && onDone()}
      withCloseButton={false}
      closeOnClickOutside={false}
      closeOnEscape={false}
      title="Save your recovery codes"
      centered
    >
      <Stack gap="md">
        <Text size="sm">
          Each code signs you in once if you lose your authenticator app or passkey. Keep them somewhere safe:
          they are shown only now.
        </Text>
        <List
          aria-label="Recovery codes"
          listStyleType="none"
          ff="monospace"
          style={{ display: 'grid', gridTemplateColumns: 'repeat(2, minmax(0, 1fr))', gap: 4 }}
        >
          {codes.map((code) => (
            <List.Item key={code}>{code}</List.Item>
          ))}
        </List>
        <Group gap="sm">
          <CopySecretButton value={text} label="Copy codes" copiedStatus="Recovery codes copied" />
          <Button
            variant="light"
            leftSection={<IconDownload size={16} aria-hidden="true" />}
            onClick={() =>
              saveBlob(new Blob([recoveryCodesFile(codes)], { type: 'text/plain' }), RECOVERY_CODES_FILENAME)
            }
          >
            Download
          </Button>
        </Group>
        <Checkbox
          label="I saved my recovery codes"
          checked={saved}
          onChange={(event) => setSaved(event.currentTarget.checked)}
        />
        <Group justify="flex-end">
          <Button onClick={onDone} disabled={!saved}>
            Done
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
