import { Button, CopyButton, Group, Textarea, VisuallyHidden } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';

const secretInputStyles = {
  input: {
    fontFamily: 'var(--mantine-font-family-monospace)',
    wordBreak: 'break-all',
    resize: 'none',
  },
} as const;

interface SecretFieldProps {
  label: string;
  /** Empty while it is not there yet. */
  secret: string;
  /** The copy button's words: "Copy key". */
  copyLabel: string;
  /** What screen readers hear once it is copied: "API key copied". */
  copiedStatus: string;
  onDone: () => void;
  /** The secret is still being read. */
  loading?: boolean;
}

/**
 * Copies a secret (or several, one a line): its words turn to "Copied" for the eyes while screen readers hear
 * `copiedStatus`; it takes focus when its dialog opens.
 */
export function CopySecretButton({
  value,
  label,
  copiedStatus,
}: {
  value: string;
  label: string;
  copiedStatus: string;
}) {
  return (
    <CopyButton value={value} timeout={2000}>
      {({ copied, copy }) => (
        <>
          <Button
            variant="light"
            color={copied ? 'teal' : undefined}
            leftSection={
              copied ? <IconCheck size={16} aria-hidden="true" /> : <IconCopy size={16} aria-hidden="true" />
            }
            onClick={copy}
            disabled={!value}
            data-autofocus
          >
            {copied ? 'Copied' : label}
          </Button>
          {/* The button's new words are for the eyes; screen readers hear this (the region exists first). */}
          <VisuallyHidden role="status" aria-live="polite">
            {copied ? copiedStatus : ''}
          </VisuallyHidden>
        </>
      )}
    </CopyButton>
  );
}

/**
 * A secret shown to be copied (an API key just created, a webhook signing secret): read-only, selected on focus, a
 * Copy button that takes focus when the dialog opens, and Done. Nothing of it is kept once the dialog closes.
 */
export function SecretField({ label, secret, copyLabel, copiedStatus, onDone, loading }: SecretFieldProps) {
  return (
    <>
      <Textarea
        label={label}
        value={secret}
        placeholder={loading ? 'Loading…' : undefined}
        aria-busy={loading}
        readOnly
        // Two lines hold the whole key at phone width too (Mantine's autosize needs APIs jsdom lacks).
        rows={2}
        onFocus={(event) => event.currentTarget.select()}
        styles={secretInputStyles}
      />
      <Group justify="space-between" gap="sm">
        <CopySecretButton value={secret} label={copyLabel} copiedStatus={copiedStatus} />
        <Button onClick={onDone}>Done</Button>
      </Group>
    </>
  );
}
