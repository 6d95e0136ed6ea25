import {
  Badge,
  Box,
  Button,
  Group,
  Paper,
  Skeleton,
  Stack,
  Table,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import type { ApiKey, ApiKeyMode } from '@veriform/contracts';
import { DetailField } from '../../../components/layout/DetailField';
import { formatDateTime } from '../../../lib/format';
import { creatorName } from '../../../lib/people';
import { useCompactLayout } from '../../../lib/use-compact-layout';

export const modeLabels: Record<ApiKeyMode, string> = { live: 'Live', test: 'Test' };

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/** The key's public beginning, as Stripe shows it: enough to tell keys apart, never enough to use one. */
export function shownPrefix(key: ApiKey): string {
  return `${key.prefix}…`;
}

export function ModeBadge({ mode }: { mode: ApiKeyMode }) {
  return (
    <Badge
      size="sm"
      variant="light"
      color={mode === 'live' ? 'green' : 'orange'}
      // Dark text on the tint: Mantine's light orange (orange.9 on orange.1) is below AA's 4.5:1.
      c="dark.6"
      style={{ flexShrink: 0 }}
    >
      {modeLabels[mode]}
    </Badge>
  );
}

function Status({ apiKey }: { apiKey: ApiKey }) {
  if (apiKey.revokedAt)
    return (
      <Text size="sm" c="dimmed">
        Revoked on <time dateTime={apiKey.revokedAt}>{dateFormat.format(new Date(apiKey.revokedAt))}</time>
      </Text>
    );
  return (
    <Badge size="sm" variant="light" color="blue" c="dark.6">
      Active
    </Badge>
  );
}

function Scopes({ apiKey }: { apiKey: ApiKey }) {
  return (
    <Stack gap={2} component="ul" p={0} m={0} style={{ listStyle: 'none' }} role="list">
      {apiKey.scopes.map((scope) => (
        <Text key={scope} component="li" size="xs" ff="monospace">
          {scope}
        </Text>
      ))}
    </Stack>
  );
}

function LastUsed({ apiKey }: { apiKey: ApiKey }) {
  if (!apiKey.lastUsedAt)
    return (
      <Text span size="sm" c="dimmed">
        Never
      </Text>
    );
  return (
    <>
      <time dateTime={apiKey.lastUsedAt}>{formatDateTime(apiKey.lastUsedAt)}</time>
      {apiKey.lastUsedIp && (
        <Text size="xs" c="dimmed" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
          {apiKey.lastUsedIp}
        </Text>
      )}
    </>
  );
}

function Prefix({ apiKey }: { apiKey: ApiKey }) {
  return (
    <Text span size="sm" ff="monospace" style={{ whiteSpace: 'nowrap' }}>
      {shownPrefix(apiKey)}
    </Text>
  );
}

/** The owner who created it (name, else address), or "—" when unknown (ADR 30). */
function CreatedBy({ apiKey }: { apiKey: ApiKey }) {
  return (
    <Text span size="sm" style={{ overflowWrap: 'anywhere' }}>
      {creatorName(apiKey.createdBy)}
    </Text>
  );
}

function RevokeButton({ apiKey, onRevoke }: { apiKey: ApiKey; onRevoke: (key: ApiKey) => void }) {
  if (apiKey.revokedAt) return null;
  return (
    <Button
      variant="subtle"
      color="red"
      size="xs"
      aria-label={`Revoke ${apiKey.name}`}
      onClick={() => onRevoke(apiKey)}
    >
      Revoke
    </Button>
  );
}

interface ApiKeyListProps {
  keys: ApiKey[];
  onRevoke: (key: ApiKey) => void;
}

function ApiKeysTable({ keys, onRevoke }: ApiKeyListProps) {
  return (
    <Table.ScrollContainer minWidth={1040}>
      <Table aria-label="API keys" verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Name</Table.Th>
            <Table.Th scope="col">Mode</Table.Th>
            <Table.Th scope="col">Key</Table.Th>
            <Table.Th scope="col">Scopes</Table.Th>
            <Table.Th scope="col">Created</Table.Th>
            <Table.Th scope="col">Created by</Table.Th>
            <Table.Th scope="col">Last used</Table.Th>
            <Table.Th scope="col">Status</Table.Th>
            <Table.Th scope="col">
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {keys.map((key) => (
            <Table.Tr key={key.id}>
              <Table.Td fw={500} style={{ overflowWrap: 'anywhere' }}>
                {key.name}
              </Table.Td>
              <Table.Td>
                <ModeBadge mode={key.mode} />
              </Table.Td>
              <Table.Td>
                <Prefix apiKey={key} />
              </Table.Td>
              <Table.Td>
                <Scopes apiKey={key} />
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                <time dateTime={key.created}>{formatDateTime(key.created)}</time>
              </Table.Td>
              <Table.Td maw={200}>
                <CreatedBy apiKey={key} />
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                <LastUsed apiKey={key} />
              </Table.Td>
              <Table.Td>
                <Status apiKey={key} />
              </Table.Td>
              <Table.Td ta="right">
                <RevokeButton apiKey={key} onRevoke={onRevoke} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** One labelled value of a card (a definition list keeps each label with its value for screen readers). */

const fieldGrid = {
  display: 'grid',
  gridTemplateColumns: 'repeat(2, minmax(0, 1fr))',
  gap: 'var(--mantine-spacing-xs) var(--mantine-spacing-md)',
  margin: 0,
} as const;

/** Small screens: one card per key with every column of the table, nothing to scroll sideways. */
function ApiKeyCards({ keys, onRevoke }: ApiKeyListProps) {
  return (
    <Stack
      component="ul"
      // list-style none drops the list role in some browsers: say it.
      role="list"
      aria-label="API keys"
      gap="sm"
      p={0}
      m={0}
      style={{ listStyle: 'none' }}
    >
      {keys.map((key) => (
        <Paper key={key.id} component="li" withBorder radius="md" p="sm">
          <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start" mb="xs">
            <Group gap="xs" wrap="wrap" style={{ minWidth: 0 }}>
              <Text fw={500} size="sm" style={{ overflowWrap: 'anywhere' }}>
                {key.name}
              </Text>
              <ModeBadge mode={key.mode} />
            </Group>
            <RevokeButton apiKey={key} onRevoke={onRevoke} />
          </Group>
          <Box component="dl" style={fieldGrid}>
            <DetailField label="Key">
              <Prefix apiKey={key} />
            </DetailField>
            <DetailField label="Status">
              <Status apiKey={key} />
            </DetailField>
            <DetailField label="Created">
              <time dateTime={key.created}>{formatDateTime(key.created)}</time>
            </DetailField>
            <DetailField label="Created by">
              <CreatedBy apiKey={key} />
            </DetailField>
            <DetailField label="Last used">
              <LastUsed apiKey={key} />
            </DetailField>
            <DetailField label="Scopes">
              <Scopes apiKey={key} />
            </DetailField>
          </Box>
        </Paper>
      ))}
    </Stack>
  );
}

/** The account's keys, newest first: a table on wide screens, cards on small ones (as the activity log does). */
export function ApiKeyList(props: ApiKeyListProps) {
  return useCompactLayout() ? <ApiKeyCards {...props} /> : <ApiKeysTable {...props} />;
}

export function ApiKeyListSkeleton() {
  return (
    <Stack gap="xs" aria-busy="true" aria-label="Loading API keys">
      <Skeleton height={36} radius="sm" />
      <Skeleton height={36} radius="sm" />
      <Skeleton height={36} radius="sm" />
    </Stack>
  );
}
