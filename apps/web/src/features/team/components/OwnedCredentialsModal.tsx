import { Alert, Center, Checkbox, Loader, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { KeepCredentials, TeamMembership } from '@veriform/contracts';
import { type ReactNode, useEffect, useState } from 'react';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { errorDisplayText } from '../../../lib/error-text';
import { personName } from '../../../lib/people';
import { useServices } from '../../../lib/services';
import { ownedCredentialsQueryOptions } from '../../memberships/api';

export const ownedCredentialsTexts = {
  loading: 'Loading their API keys and webhook endpoints',
  none: (name: string) => `${name} has no active API keys or enabled webhook endpoints.`,
  some: 'Their API keys will be revoked and their webhook endpoints disabled at once. Tick any to keep:',
  failed: 'Their API keys and webhook endpoints could not be listed. If you go on, all of them are revoked.',
  noneOfYours: 'You have no active API keys or enabled webhook endpoints here.',
  someOfYours: 'Your API keys will be revoked and your webhook endpoints disabled at once. Tick any to keep:',
} as const;

interface OwnedCredentialsModalProps {
  opened: boolean;
  member: Pick<TeamMembership, 'id'> & { user: Pick<TeamMembership['user'], 'name' | 'email'> };
  accountId: number;
  /** `remove`: removing them from the team; `demote`: making an owner a member; `leave`: an owner leaving. */
  action: 'remove' | 'demote' | 'leave';
  accountName: string;
  loading: boolean;
  onConfirm: (keep: Required<KeepCredentials>) => void;
  onCancel: () => void;
}

function toggled(ids: number[], id: number, checked: boolean): number[] {
  return checked ? [...ids, id] : ids.filter((x) => x !== id);
}

/**
 * Removing someone, or making an owner a member, takes what they created (ADR 30): the dialog lists their active API
 * keys and enabled webhook endpoints, read when it opens, each with a box to keep it (unticked).
 */
export function OwnedCredentialsModal({
  opened,
  member,
  accountId,
  action,
  accountName,
  loading,
  onConfirm,
  onCancel,
}: OwnedCredentialsModalProps) {
  const { api } = useServices();
  const name = personName(member.user);
  const owned = useQuery({ ...ownedCredentialsQueryOptions(api, accountId, member.id), enabled: opened });
  const [keepKeys, setKeepKeys] = useState<number[]>([]);
  const [keepEndpoints, setKeepEndpoints] = useState<number[]>([]);
  useEffect(() => {
    if (!opened) {
      setKeepKeys([]);
      setKeepEndpoints([]);
    }
  }, [opened]);

  let list: ReactNode;
  if (owned.isPending) {
    list = (
      <Center py="sm">
        <Loader size="sm" role="progressbar" aria-label={ownedCredentialsTexts.loading} />
      </Center>
    );
  } else if (owned.error) {
    list = (
      <Alert color="orange" role="alert">
        {ownedCredentialsTexts.failed} ({errorDisplayText(owned.error)})
      </Alert>
    );
  } else if (owned.data.apiKeys.length === 0 && owned.data.webhookEndpoints.length === 0) {
    list = (
      <Text size="sm" c="dimmed">
        {action === 'leave' ? ownedCredentialsTexts.noneOfYours : ownedCredentialsTexts.none(name)}
      </Text>
    );
  } else {
    list = (
      <Stack gap="xs">
        <Text size="sm">
          {action === 'leave' ? ownedCredentialsTexts.someOfYours : ownedCredentialsTexts.some}
        </Text>
        {owned.data.apiKeys.length > 0 && (
          <Stack gap={6} role="group" aria-label="API keys">
            <Text size="sm" fw={500}>
              API keys
            </Text>
            {owned.data.apiKeys.map((key) => (
              <Checkbox
                key={key.id}
                label={`Keep ${key.name} (${key.prefix}…)`}
                checked={keepKeys.includes(key.id)}
                onChange={(event) => setKeepKeys((ids) => toggled(ids, key.id, event.currentTarget.checked))}
              />
            ))}
          </Stack>
        )}
        {owned.data.webhookEndpoints.length > 0 && (
          <Stack gap={6} role="group" aria-label="Webhook endpoints">
            <Text size="sm" fw={500}>
              Webhook endpoints
            </Text>
            {owned.data.webhookEndpoints.map((endpoint) => (
              <Checkbox
                key={endpoint.id}
                label={`Keep ${endpoint.url}`}
                description={endpoint.description || undefined}
                styles={{ label: { overflowWrap: 'anywhere' } }}
                checked={keepEndpoints.includes(endpoint.id)}
                onChange={(event) =>
                  setKeepEndpoints((ids) => toggled(ids, endpoint.id, event.currentTarget.checked))
                }
              />
            ))}
          </Stack>
        )}
      </Stack>
    );
  }

  const words = {
    remove: {
      title: `Remove ${name}?`,
      confirm: 'Remove',
      text: `${name} will lose access to ${accountName}. You can invite them again later.`,
    },
    demote: {
      title: `Make ${name} a member?`,
      confirm: 'Make member',
      text: `${name} will no longer manage the team, the company, API keys or webhooks of ${accountName}.`,
    },
    leave: {
      title: `Leave ${accountName}?`,
      confirm: 'Leave',
      text: `You will lose access to ${accountName}. An owner can invite you again.`,
    },
  }[action];

  return (
    <ConfirmModal
      opened={opened}
      title={words.title}
      confirmLabel={words.confirm}
      onConfirm={() => onConfirm({ keepApiKeyIds: keepKeys, keepWebhookEndpointIds: keepEndpoints })}
      onCancel={onCancel}
      loading={loading}
      confirmDisabled={owned.isPending}
    >
      <Stack gap="md">
        <Text>{words.text}</Text>
        {list}
      </Stack>
    </ConfirmModal>
  );
}
