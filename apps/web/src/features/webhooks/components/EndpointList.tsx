import { Box, Stack, Text } from '@mantine/core';
import type { WebhookEndpoint } from '@veriform/contracts';
import { type DataColumn, DataList } from '../../../components/data-list/DataList';
import { BarsSkeleton } from '../../../components/data-list/ListSkeleton';
import { DetailField } from '../../../components/layout/DetailField';
import { AnchorLink } from '../../../components/links';
import { CreatedBy, EndpointStatus, EventTypes, SecretPreview } from './EndpointParts';

interface EndpointListProps {
  endpoints: readonly WebhookEndpoint[];
}

/** The URL, as the link to the endpoint's page (its settings, secret and deliveries). */
function EndpointLink({ endpoint }: { endpoint: WebhookEndpoint }) {
  return (
    <AnchorLink
      to="/settings/webhooks/$endpointId"
      params={{ endpointId: String(endpoint.id) }}
      size="sm"
      fw={500}
      ff="monospace"
      style={{ overflowWrap: 'anywhere' }}
    >
      {endpoint.url}
    </AnchorLink>
  );
}

function Description({ endpoint }: { endpoint: WebhookEndpoint }) {
  if (!endpoint.description)
    return (
      <Text span size="sm" c="dimmed">
        No description
      </Text>
    );
  return (
    <Text span size="sm" style={{ overflowWrap: 'anywhere' }}>
      {endpoint.description}
    </Text>
  );
}

const columns: DataColumn<WebhookEndpoint>[] = [
  { label: 'URL', cell: (endpoint) => <EndpointLink endpoint={endpoint} />, td: { maw: 320 } },
  { label: 'Description', cell: (endpoint) => <Description endpoint={endpoint} />, td: { maw: 240 } },
  { label: 'Events', cell: (endpoint) => <EventTypes types={endpoint.eventTypes} />, td: { maw: 280 } },
  { label: 'Status', cell: (endpoint) => <EndpointStatus endpoint={endpoint} /> },
  { label: 'Secret', cell: (endpoint) => <SecretPreview endpoint={endpoint} /> },
  { label: 'Created by', cell: (endpoint) => <CreatedBy endpoint={endpoint} />, td: { maw: 200 } },
];

/** Small screens: one card per endpoint, nothing to scroll sideways. */
function EndpointCard({ endpoint }: { endpoint: WebhookEndpoint }) {
  return (
    <>
      <Box mb="xs">
        <EndpointLink endpoint={endpoint} />
      </Box>
      <Stack component="dl" gap="xs" m={0}>
        <DetailField label="Description">
          <Description endpoint={endpoint} />
        </DetailField>
        <DetailField label="Events">
          <EventTypes types={endpoint.eventTypes} />
        </DetailField>
        <DetailField label="Status">
          <EndpointStatus endpoint={endpoint} />
        </DetailField>
        <DetailField label="Secret">
          <SecretPreview endpoint={endpoint} />
        </DetailField>
        <DetailField label="Created by">
          <CreatedBy endpoint={endpoint} />
        </DetailField>
      </Stack>
    </>
  );
}

/** The account's endpoints, oldest first: a table on wide screens, cards on small ones (as API keys do). */
export function EndpointList({ endpoints }: EndpointListProps) {
  return (
    <DataList
      label="Webhook endpoints"
      rows={endpoints}
      rowKey={(endpoint) => endpoint.id}
      columns={columns}
      minWidth={940}
      card={(endpoint) => <EndpointCard endpoint={endpoint} />}
    />
  );
}

export function EndpointListSkeleton() {
  return <BarsSkeleton label="Loading webhook endpoints" rows={2} />;
}
