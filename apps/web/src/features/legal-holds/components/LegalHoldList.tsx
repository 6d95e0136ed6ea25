import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import type { LegalHold } from '@veriform/contracts';
import { CardFields, type DataColumn, DataList } from '../../../components/data-list/DataList';
import { ListSkeleton } from '../../../components/data-list/ListSkeleton';
import { DetailField } from '../../../components/layout/DetailField';
import { formatDateTime } from '../../../lib/format';
import { legalHoldReach, legalHoldScopeLabels, legalHoldStatusLabels, legalHoldTarget } from '../labels';

const COLUMNS = ['Holds', 'Reason', 'Reaches', 'Placed', 'Status', 'Actions'] as const;

export interface LegalHoldActions {
  /** Undefined for a reader who may not release (a member): no Release button. */
  onRelease?: (hold: LegalHold) => void;
}

function StatusBadge({ hold }: { hold: LegalHold }) {
  return (
    <Badge
      size="sm"
      variant="light"
      color={hold.status === 'active' ? 'orange' : 'gray'}
      c="dark.6"
      style={{ flexShrink: 0, minWidth: 'max-content' }}
    >
      {legalHoldStatusLabels[hold.status]}
    </Badge>
  );
}

function Target({ hold }: { hold: LegalHold }) {
  return (
    <Stack gap={0}>
      <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
        {legalHoldTarget(hold)}
      </Text>
      <Text size="xs" c="gray.7">
        {legalHoldScopeLabels[hold.scope]}
      </Text>
    </Stack>
  );
}

function Reason({ hold }: { hold: LegalHold }) {
  return (
    <Stack gap={2}>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {hold.reason}
      </Text>
      {hold.releaseReason !== null && (
        <Text size="xs" c="gray.7" style={{ overflowWrap: 'anywhere' }}>
          Released: {hold.releaseReason}
        </Text>
      )}
    </Stack>
  );
}

function Placed({ hold }: { hold: LegalHold }) {
  return (
    <Stack gap={0}>
      <time dateTime={hold.placedAt}>{formatDateTime(hold.placedAt)}</time>
      <Text size="xs" c="gray.7" style={{ overflowWrap: 'anywhere' }}>
        by {hold.placedBy}
      </Text>
    </Stack>
  );
}

function Actions({ hold, actions }: { hold: LegalHold; actions: LegalHoldActions }) {
  const { onRelease } = actions;
  if (hold.status !== 'active' || !onRelease) return null;
  return (
    <Button
      size="xs"
      variant="light"
      aria-label={`Release the hold on ${legalHoldTarget(hold)}`}
      onClick={() => onRelease(hold)}
    >
      Release
    </Button>
  );
}

function columnsFor(actions: LegalHoldActions): DataColumn<LegalHold>[] {
  return [
    { label: 'Holds', cell: (h) => <Target hold={h} />, td: { style: { minWidth: 160 } } },
    { label: 'Reason', cell: (h) => <Reason hold={h} />, td: { style: { minWidth: 200 } } },
    { label: 'Reaches', cell: legalHoldReach, td: { style: { whiteSpace: 'nowrap' } } },
    { label: 'Placed', cell: (h) => <Placed hold={h} /> },
    { label: 'Status', cell: (h) => <StatusBadge hold={h} /> },
    { label: 'Actions', cell: (h) => <Actions hold={h} actions={actions} /> },
  ];
}

function LegalHoldCard({ hold, actions }: { hold: LegalHold; actions: LegalHoldActions }) {
  return (
    <>
      <Group justify="space-between" gap="xs" wrap="wrap" mb="xs" align="flex-start">
        <Target hold={hold} />
        <StatusBadge hold={hold} />
      </Group>
      <CardFields>
        <DetailField label="Reason">
          <Reason hold={hold} />
        </DetailField>
        <DetailField label="Reaches">{legalHoldReach(hold)}</DetailField>
        <DetailField label="Placed">
          <Placed hold={hold} />
        </DetailField>
      </CardFields>
      <Group mt="sm">
        <Actions hold={hold} actions={actions} />
      </Group>
    </>
  );
}

/** The holds: a table on wide screens, cards on small ones. */
export function LegalHoldList({
  holds,
  busy,
  actions,
}: {
  holds: readonly LegalHold[];
  busy: boolean;
  actions: LegalHoldActions;
}) {
  return (
    <DataList
      label="Legal holds"
      rows={holds}
      rowKey={(h) => h.id}
      busy={busy}
      columns={columnsFor(actions)}
      minWidth={860}
      card={(h) => <LegalHoldCard hold={h} actions={actions} />}
    />
  );
}

export function LegalHoldListSkeleton() {
  return <ListSkeleton label="Legal holds" columns={COLUMNS} />;
}
