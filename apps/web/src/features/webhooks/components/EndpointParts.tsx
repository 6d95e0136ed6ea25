import { Badge, Group, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { ALL_WEBHOOK_EVENTS, type WebhookEndpoint } from '@veriform/contracts';
import { formatDateTime } from '../../../lib/format';
import { creatorName } from '../../../lib/people';
import {
  ALL_EVENTS_LABEL,
  DISABLED_CREATOR_REMOVED_TEXT,
  DISABLED_FOR_FAILING_TEXT,
  eventTypeLabel,
} from '../labels';

/** Enabled or disabled, and why an owner should look: disabled for failing, or failing since when. */
export function EndpointStatus({ endpoint }: { endpoint: WebhookEndpoint }) {
  return (
    <Stack gap={4} align="flex-start">
      {endpoint.enabled ? (
        <Badge size="sm" variant="light" color="green" c="dark.6">
          Enabled
        </Badge>
      ) : (
        <Badge size="sm" variant="light" color="gray" c="dark.6">
          Disabled
        </Badge>
      )}
      {!endpoint.enabled && endpoint.disabledReason === 'failing' && (
        <Text size="xs" c="red.8">
          {DISABLED_FOR_FAILING_TEXT}
        </Text>
      )}
      {!endpoint.enabled && endpoint.disabledReason === 'creator_removed' && (
        <Text size="xs" c="dimmed">
          {DISABLED_CREATOR_REMOVED_TEXT}
        </Text>
      )}
      {endpoint.failingSince && (
        <Group gap={4} wrap="nowrap" align="flex-start">
          <IconAlertTriangle size={14} color="var(--mantine-color-orange-8)" aria-hidden="true" />
          <Text size="xs" c="red.9">
            Failing since{' '}
            <time dateTime={endpoint.failingSince}>{formatDateTime(endpoint.failingSince)}</time>
          </Text>
        </Group>
      )}
    </Stack>
  );
}

/** The owner who created it (name, else address), or "—" when unknown (ADR 30). */
export function CreatedBy({ endpoint }: { endpoint: WebhookEndpoint }) {
  return (
    <Text span size="sm" style={{ overflowWrap: 'anywhere' }}>
      {creatorName(endpoint.createdBy)}
    </Text>
  );
}

/** "All events", or one chip per wanted type. */
export function EventTypes({ types }: { types: string[] }) {
  if (types.includes(ALL_WEBHOOK_EVENTS))
    return (
      <Text span size="sm">
        {ALL_EVENTS_LABEL}
      </Text>
    );
  return (
    <Group component="ul" gap={4} p={0} m={0} style={{ listStyle: 'none' }} role="list">
      {types.map((type) => (
        <Badge key={type} component="li" size="sm" variant="outline" color="gray" c="dark.6" tt="none">
          {eventTypeLabel(type)}
        </Badge>
      ))}
    </Group>
  );
}

export function SecretPreview({ endpoint }: { endpoint: WebhookEndpoint }) {
  return (
    <Text span size="sm" ff="monospace" style={{ whiteSpace: 'nowrap' }}>
      {endpoint.secretPreview}
    </Text>
  );
}
