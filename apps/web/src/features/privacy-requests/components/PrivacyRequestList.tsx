import { Badge, Group, Stack, Text } from '@mantine/core';
import type { PrivacyRequest } from '@veriform/contracts';
import { CardFields, type DataColumn, DataList } from '../../../components/data-list/DataList';
import { ListSkeleton } from '../../../components/data-list/ListSkeleton';
import { DetailField } from '../../../components/layout/DetailField';
import { AnchorLink } from '../../../components/links';
import {
  formatDay,
  privacyLawLabels,
  privacyRequestStatusColors,
  privacyRequestStatusLabels,
  privacyRequestTypeLabels,
} from '../labels';

const COLUMNS = ['Request', 'Law', 'Requester', 'Received', 'Due', 'Status'] as const;

export function PrivacyRequestStatusBadge({ request }: { request: PrivacyRequest }) {
  return (
    <Badge
      size="sm"
      variant="light"
      color={privacyRequestStatusColors[request.status]}
      c="dark.6"
      style={{ flexShrink: 0, minWidth: 'max-content' }}
    >
      {privacyRequestStatusLabels[request.status]}
    </Badge>
  );
}

/** The due day; past it while not answered, it says "Overdue" in words (not only in red). */
export function DueDate({ request }: { request: PrivacyRequest }) {
  return (
    <Group gap={6} wrap="wrap" component="span">
      <time dateTime={request.dueAt}>{formatDay(request.dueAt)}</time>
      {request.overdue && (
        <Badge size="sm" variant="light" color="red" c="red.9" style={{ minWidth: 'max-content' }}>
          Overdue
        </Badge>
      )}
    </Group>
  );
}

/** The request's link: its type, to its page. */
function RequestLink({ request }: { request: PrivacyRequest }) {
  return (
    <AnchorLink
      to="/settings/privacy-requests/$requestId"
      params={{ requestId: request.id }}
      fw={600}
      aria-label={`${privacyRequestTypeLabels[request.type]} request of ${request.requester.name}`}
    >
      {privacyRequestTypeLabels[request.type]}
    </AnchorLink>
  );
}

function Requester({ request }: { request: PrivacyRequest }) {
  return (
    <Stack gap={0}>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {request.requester.name}
      </Text>
      {request.requester.email && (
        <Text size="xs" c="gray.7" style={{ overflowWrap: 'anywhere' }}>
          {request.requester.email}
        </Text>
      )}
    </Stack>
  );
}

const received = (r: PrivacyRequest) => <time dateTime={r.receivedAt}>{formatDay(r.receivedAt)}</time>;

const columns: DataColumn<PrivacyRequest>[] = [
  { label: 'Request', cell: (r) => <RequestLink request={r} /> },
  { label: 'Law', cell: (r) => privacyLawLabels[r.law] },
  { label: 'Requester', cell: (r) => <Requester request={r} />, td: { style: { minWidth: 180 } } },
  { label: 'Received', cell: received, td: { style: { whiteSpace: 'nowrap' } } },
  { label: 'Due', cell: (r) => <DueDate request={r} /> },
  { label: 'Status', cell: (r) => <PrivacyRequestStatusBadge request={r} /> },
];

function PrivacyRequestCard({ request: r }: { request: PrivacyRequest }) {
  return (
    <>
      <Group justify="space-between" gap="xs" wrap="wrap" mb="xs" align="flex-start">
        <Group gap="xs" wrap="wrap">
          <RequestLink request={r} />
          <Text size="sm" c="gray.7">
            {privacyLawLabels[r.law]}
          </Text>
        </Group>
        <PrivacyRequestStatusBadge request={r} />
      </Group>
      <CardFields>
        <DetailField label="Requester">{r.requester.name}</DetailField>
        <DetailField label="Received">{received(r)}</DetailField>
        <DetailField label="Due">
          <DueDate request={r} />
        </DetailField>
      </CardFields>
    </>
  );
}

/** The requests: a table on wide screens, cards on small ones. */
export function PrivacyRequestList({
  requests,
  busy,
}: {
  requests: readonly PrivacyRequest[];
  busy: boolean;
}) {
  return (
    <DataList
      label="Privacy requests"
      rows={requests}
      rowKey={(r) => r.id}
      busy={busy}
      columns={columns}
      minWidth={760}
      card={(r) => <PrivacyRequestCard request={r} />}
    />
  );
}

export function PrivacyRequestListSkeleton() {
  return <ListSkeleton label="Privacy requests" columns={COLUMNS} />;
}
