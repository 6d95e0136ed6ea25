import { Badge, Button, Group, Text } from '@mantine/core';
import type { Revocation } from '@veriform/contracts';
import { CardFields, type DataColumn, DataList } from '../../../components/data-list/DataList';
import { ListSkeleton } from '../../../components/data-list/ListSkeleton';
import { DetailField } from '../../../components/layout/DetailField';
import { formatDateTime } from '../../../lib/format';
import {
  revocationChannelLabels,
  revocationStatusColors,
  revocationStatusLabels,
  revocationViaLabels,
} from '../labels';

const COLUMNS = ['Received', 'Number or address', 'How', 'Words', 'Status', 'Deadline', 'Actions'] as const;

export interface RevocationActions {
  onAcknowledge: (revocation: Revocation) => void;
  onDecide: (revocation: Revocation, isRevocation: boolean) => void;
  /** The revocation whose action is running: its buttons are busy, the others wait. */
  pendingId: string | null;
}

function StatusBadge({ revocation }: { revocation: Revocation }) {
  return (
    <Badge
      size="sm"
      variant="light"
      color={revocationStatusColors[revocation.status]}
      c="dark.6"
      style={{ flexShrink: 0, minWidth: 'max-content' }}
    >
      {revocationStatusLabels[revocation.status]}
    </Badge>
  );
}

function How({ revocation: r }: { revocation: Revocation }) {
  const via = r.via ? ` (${revocationViaLabels[r.via]})` : '';
  return (
    <>
      {revocationChannelLabels[r.channel]}
      {via}
    </>
  );
}

/** The consumer's words (a reply) or the recorder's note, as written. */
function Words({ revocation: r }: { revocation: Revocation }) {
  const text = r.words || r.note;
  return text ? (
    <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
      {text}
    </Text>
  ) : (
    <Text size="sm" c="dark.3">
      —
    </Text>
  );
}

function Actions({ revocation: r, actions }: { revocation: Revocation; actions: RevocationActions }) {
  const busy = actions.pendingId === r.id;
  const waiting = actions.pendingId !== null && !busy;
  const who = r.phone ?? r.email ?? '';
  if (r.status === 'open' || r.status === 'overdue')
    return (
      <Button
        size="xs"
        variant="light"
        loading={busy}
        disabled={waiting}
        aria-label={`Acknowledge the revocation of ${who}`}
        onClick={() => actions.onAcknowledge(r)}
      >
        Acknowledge
      </Button>
    );
  if (r.status === 'possible')
    return (
      <Group gap="xs" wrap="wrap">
        <Button
          size="xs"
          variant="light"
          color="red"
          c="red.9"
          loading={busy}
          disabled={waiting}
          aria-label={`Mark the reply of ${who} as a revocation`}
          onClick={() => actions.onDecide(r, true)}
        >
          Revocation
        </Button>
        <Button
          size="xs"
          variant="default"
          disabled={busy || waiting}
          aria-label={`Mark the reply of ${who} as not a revocation`}
          onClick={() => actions.onDecide(r, false)}
        >
          Not a revocation
        </Button>
      </Group>
    );
  return null;
}

const received = (r: Revocation) => <time dateTime={r.receivedAt}>{formatDateTime(r.receivedAt)}</time>;
const deadline = (r: Revocation) => <time dateTime={r.deadline}>{r.deadline}</time>;

function columnsFor(actions: RevocationActions): DataColumn<Revocation>[] {
  return [
    { label: 'Received', cell: received, td: { style: { whiteSpace: 'nowrap' } } },
    {
      label: 'Number or address',
      cell: (r) => r.phone ?? r.email,
      td: { style: { overflowWrap: 'anywhere' } },
    },
    { label: 'How', cell: (r) => <How revocation={r} /> },
    { label: 'Words', cell: (r) => <Words revocation={r} />, td: { style: { minWidth: 180 } } },
    { label: 'Status', cell: (r) => <StatusBadge revocation={r} /> },
    { label: 'Deadline', cell: deadline, td: { style: { whiteSpace: 'nowrap' } } },
    { label: 'Actions', cell: (r) => <Actions revocation={r} actions={actions} /> },
  ];
}

function RevocationCard({ revocation: r, actions }: { revocation: Revocation; actions: RevocationActions }) {
  return (
    <>
      <Group justify="space-between" gap="xs" wrap="wrap" mb="xs" align="flex-start">
        <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
          {r.phone ?? r.email}
        </Text>
        <StatusBadge revocation={r} />
      </Group>
      <CardFields>
        <DetailField label="Received">{received(r)}</DetailField>
        <DetailField label="Deadline">{deadline(r)}</DetailField>
        <DetailField label="How">
          <How revocation={r} />
        </DetailField>
        <DetailField label="Words">
          <Words revocation={r} />
        </DetailField>
      </CardFields>
      <Group mt="sm">
        <Actions revocation={r} actions={actions} />
      </Group>
    </>
  );
}

/** The revocations: a table on wide screens, cards on small ones. */
export function RevocationList({
  revocations,
  busy,
  actions,
}: {
  revocations: readonly Revocation[];
  busy: boolean;
  actions: RevocationActions;
}) {
  return (
    <DataList
      label="Revocations"
      rows={revocations}
      rowKey={(r) => r.id}
      busy={busy}
      columns={columnsFor(actions)}
      minWidth={900}
      card={(r) => <RevocationCard revocation={r} actions={actions} />}
    />
  );
}

export function RevocationListSkeleton() {
  return <ListSkeleton label="Revocations" columns={COLUMNS} />;
}
