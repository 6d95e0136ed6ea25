import { Alert, Button, Group } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { errorDisplayText } from '../../lib/error-text';

/** A read that failed, inside the page: what went wrong, and Try again (busy while the new read runs). */
export function RetryAlert({
  title,
  error,
  onRetry,
  retrying,
}: {
  title: string;
  error: unknown;
  onRetry: () => unknown;
  retrying?: boolean;
}) {
  return (
    <Alert color="red" icon={<IconAlertCircle aria-hidden="true" />} role="alert" title={title}>
      <Group gap="sm" wrap="wrap">
        <span>{errorDisplayText(error)}</span>
        <Button variant="default" size="compact-sm" onClick={() => void onRetry()} loading={retrying}>
          Try again
        </Button>
      </Group>
    </Alert>
  );
}
