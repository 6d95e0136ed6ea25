import { Badge, Button, Group, Stack, Text, VisuallyHidden } from '@mantine/core';
import type { ApiKey, ApiKeyMode } from '@veriform/contracts';
import { CardFields, type DataColumn, DataList } from '../../../components/data-list/DataList';
import { BarsSkeleton } from '../../../components/data-list/ListSkeleton';
import { DetailField } from '../../../components/layout/DetailField';
import { formatDateTime } from '../../../lib/format';
import { creatorName } from '../../../lib/people';

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
  keys: readonly ApiKey[];
  onRevoke: (key: ApiKey) => void;
}

const columns = (onRevoke: (key: ApiKey) => void): DataColumn<ApiKey>[] => [
  { label: 'Name', cell: (key) => key.name, td: { fw: 500, style: { overflowWrap: 'anywhere' } } },
  { label: 'Mode', cell: (key) => <ModeBadge mode={key.mode} /> },
  { label: 'Key', cell: (key) => <Prefix apiKey={key} /> },
  { label: 'Scopes', cell: (key) => <Scopes apiKey={key} /> },
  { label: 'Created', cell: (key) => <Created apiKey={key} />, td: { style: { whiteSpace: 'nowrap' } } },
  { label: 'Created by', cell: (key) => <CreatedBy apiKey={key} />, td: { maw: 200 } },
  { label: 'Last used', cell: (key) => <LastUsed apiKey={key} />, td: { style: { whiteSpace: 'nowrap' } } },
  { label: 'Status', cell: (key) => <Status apiKey={key} /> },
  {
    label: 'Actions',
    header: <VisuallyHidden>Actions</VisuallyHidden>,
    cell: (key) => <RevokeButton apiKey={key} onRevoke={onRevoke} />,
    td: { ta: 'right' },
  },
];

function Created({ apiKey }: { apiKey: ApiKey }) {
  return <time dateTime={apiKey.created}>{formatDateTime(apiKey.created)}</time>;
}

/** Small screens: one card per key with every column of the table, nothing to scroll sideways. */
function ApiKeyCard({ apiKey: key, onRevoke }: { apiKey: ApiKey; onRevoke: (key: ApiKey) => void }) {
  return (
    <>
      <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start" mb="xs">
        <Group gap="xs" wrap="wrap" style={{ minWidth: 0 }}>
          <Text fw={500} size="sm" style={{ overflowWrap: 'anywhere' }}>
            {key.name}
          </Text>
          <ModeBadge mode={key.mode} />
        </Group>
        <RevokeButton apiKey={key} onRevoke={onRevoke} />
      </Group>
      <CardFields>
        <DetailField label="Key">
          <Prefix apiKey={key} />
        </DetailField>
        <DetailField label="Status">
          <Status apiKey={key} />
        </DetailField>
        <DetailField label="Created">
          <Created apiKey={key} />
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
      </CardFields>
    </>
  );
}

/** The account's keys, newest first: a table on wide screens, cards on small ones (as the activity log does). */
export function ApiKeyList({ keys, onRevoke }: ApiKeyListProps) {
  return (
    <DataList
      label="API keys"
      rows={keys}
      rowKey={(key) => key.id}
      columns={columns(onRevoke)}
      minWidth={1040}
      card={(key) => <ApiKeyCard apiKey={key} onRevoke={onRevoke} />}
    />
  );
}

export function ApiKeyListSkeleton() {
  return <BarsSkeleton label="Loading API keys" />;
}
