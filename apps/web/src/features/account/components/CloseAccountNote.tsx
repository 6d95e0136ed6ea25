import { Anchor, List, Loader, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { SUPPORT_EMAIL } from '@veriform/contracts';
import { useServices } from '../../../lib/services';
import { useSession } from '../../../lib/session';
import { checkDeleteQueryOptions } from '../../users/api';

/**
 * SPEC §1, §2: closing an account is done by contacting support. The server's check-delete answer says what would
 * stand in the way (e.g. being the only owner of a company account); those reasons are listed for the user.
 */
export function CloseAccountNote() {
  const { api } = useServices();
  const { user } = useSession();
  const check = useQuery({ ...checkDeleteQueryOptions(api, user.id ?? 0), enabled: user.id !== null });

  return (
    <Stack gap="sm">
      <Text>
        To close your account, contact support at{' '}
        <Anchor href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</Anchor>.
      </Text>
      {check.isPending && user.id !== null && (
        <Loader size="xs" role="progressbar" aria-label="Checking whether your account can be closed" />
      )}
      {check.data && !check.data.canDelete && check.data.reasons.length > 0 && (
        <Stack gap={4}>
          <Text size="sm" fw={600}>
            Before it can be closed:
          </Text>
          <List size="sm" spacing={2}>
            {check.data.reasons.map((reason) => (
              <List.Item key={reason}>{reason}</List.Item>
            ))}
          </List>
        </Stack>
      )}
    </Stack>
  );
}
