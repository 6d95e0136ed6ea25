import { Box, Paper, Skeleton, Stack, Table, Text } from '@mantine/core';
import type { WebhookEndpoint } from '@veriform/contracts';
import { DetailField } from '../../../components/layout/DetailField';
import { AnchorLink } from '../../../components/links';
import { useCompactLayout } from '../../../lib/use-compact-layout';
import { CreatedBy, EndpointStatus, EventTypes, SecretPreview } from './EndpointParts';

interface EndpointListProps {
  endpoints: WebhookEndpoint[];
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

function EndpointsTable({ endpoints }: EndpointListProps) {
  return (
    <Table.ScrollContainer minWidth={940}>
      <Table aria-label="Webhook endpoints" verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">URL</Table.Th>
            <Table.Th scope="col">Description</Table.Th>
            <Table.Th scope="col">Events</Table.Th>
            <Table.Th scope="col">Status</Table.Th>
            <Table.Th scope="col">Secret</Table.Th>
            <Table.Th scope="col">Created by</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {endpoints.map((endpoint) => (
            <Table.Tr key={endpoint.id}>
              <Table.Td maw={320}>
                <EndpointLink endpoint={endpoint} />
              </Table.Td>
              <Table.Td maw={240}>
                <Description endpoint={endpoint} />
              </Table.Td>
              <Table.Td maw={280}>
                <EventTypes types={endpoint.eventTypes} />
              </Table.Td>
              <Table.Td>
                <EndpointStatus endpoint={endpoint} />
              </Table.Td>
              <Table.Td>
                <SecretPreview endpoint={endpoint} />
              </Table.Td>
              <Table.Td maw={200}>
                <CreatedBy endpoint={endpoint} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Small screens: one card per endpoint, nothing to scroll sideways. */
function EndpointCards({ endpoints }: EndpointListProps) {
  return (
    <Stack
      component="ul"
      role="list"
      aria-label="Webhook endpoints"
      gap="sm"
      p={0}
      m={0}
      style={{ listStyle: 'none' }}
    >
      {endpoints.map((endpoint) => (
        <Paper key={endpoint.id} component="li" withBorder radius="md" p="sm">
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
        </Paper>
      ))}
    </Stack>
  );
}

/** The account's endpoints, oldest first: a table on wide screens, cards on small ones (as API keys do). */
export function EndpointList(props: EndpointListProps) {
  return useCompactLayout() ? <EndpointCards {...props} /> : <EndpointsTable {...props} />;
}

export function EndpointListSkeleton() {
  return (
    <Stack gap="xs" aria-busy="true" aria-label="Loading webhook endpoints">
      <Skeleton height={36} radius="sm" />
      <Skeleton height={36} radius="sm" />
    </Stack>
  );
}
