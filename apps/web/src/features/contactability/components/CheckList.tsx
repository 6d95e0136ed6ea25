import { Badge, Button, Group, Modal, Text } from '@mantine/core';
import type { ContactabilityCheck } from '@veriform/contracts';
import { useState } from 'react';
import { CardFields, type DataColumn, DataList } from '../../../components/data-list/DataList';
import { ListSkeleton } from '../../../components/data-list/ListSkeleton';
import { DetailField } from '../../../components/layout/DetailField';
import { formatDateTime, formatPhoneForReading } from '../../../lib/format';
import { channelLabels, purposeLabels, reasonLabels, verdictLabel } from '../labels';
import { VerdictPanel } from './VerdictPanel';

const COLUMNS = ['Checked', 'Number', 'Purpose', 'Verdict', 'Reasons', 'Asked by', 'Details'] as const;

function VerdictBadge({ check }: { check: ContactabilityCheck }) {
  return (
    <Badge
      size="sm"
      variant="light"
      color={check.allowed ? 'green' : 'red'}
      c="dark.6"
      style={{ flexShrink: 0, minWidth: 'max-content' }}
    >
      {verdictLabel(check.allowed)}
    </Badge>
  );
}

const checked = (c: ContactabilityCheck) => <time dateTime={c.checkedAt}>{formatDateTime(c.checkedAt)}</time>;
const purpose = (c: ContactabilityCheck) => `${purposeLabels[c.purpose]} · ${channelLabels[c.channel]}`;

function Reasons({ check }: { check: ContactabilityCheck }) {
  if (check.reasons.length === 0)
    return (
      <Text size="sm" c="dark.3">
        —
      </Text>
    );
  return <Text size="sm">{check.reasons.map((r) => reasonLabels[r.code]).join(', ')}</Text>;
}

function DetailsButton({ check, onOpen }: { check: ContactabilityCheck; onOpen: () => void }) {
  return (
    <Button
      size="xs"
      variant="default"
      onClick={onOpen}
      aria-label={`Details of the check of ${formatPhoneForReading(check.phone)} at ${formatDateTime(check.checkedAt)}`}
    >
      Details
    </Button>
  );
}

function columnsFor(open: (check: ContactabilityCheck) => void): DataColumn<ContactabilityCheck>[] {
  return [
    { label: 'Checked', cell: checked, td: { style: { whiteSpace: 'nowrap' } } },
    {
      label: 'Number',
      cell: (c) => formatPhoneForReading(c.phone),
      td: { style: { whiteSpace: 'nowrap' } },
    },
    { label: 'Purpose', cell: purpose },
    { label: 'Verdict', cell: (c) => <VerdictBadge check={c} /> },
    { label: 'Reasons', cell: (c) => <Reasons check={c} />, td: { style: { minWidth: 140 } } },
    { label: 'Asked by', cell: (c) => c.askedBy, td: { style: { overflowWrap: 'anywhere' } } },
    { label: 'Details', cell: (c) => <DetailsButton check={c} onOpen={() => open(c)} /> },
  ];
}

function CheckCard({ check, onOpen }: { check: ContactabilityCheck; onOpen: () => void }) {
  return (
    <>
      <Group justify="space-between" gap="xs" wrap="wrap" mb="xs" align="flex-start">
        <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
          {formatPhoneForReading(check.phone)}
        </Text>
        <VerdictBadge check={check} />
      </Group>
      <CardFields>
        <DetailField label="Checked">{checked(check)}</DetailField>
        <DetailField label="Purpose">{purpose(check)}</DetailField>
        <DetailField label="Reasons">
          <Reasons check={check} />
        </DetailField>
        <DetailField label="Asked by">{check.askedBy}</DetailField>
      </CardFields>
      <Group mt="sm">
        <DetailsButton check={check} onOpen={onOpen} />
      </Group>
    </>
  );
}

/**
 * The verdicts kept (issue #35), newest first: who asked (a member's e-mail, an API key's prefix), the number, why it
 * was to be contacted, the verdict and its reasons; Details shows one verdict in full. A table on wide screens, cards
 * on small ones.
 */
export function CheckList({ checks, busy }: { checks: readonly ContactabilityCheck[]; busy: boolean }) {
  const [shown, setShown] = useState<ContactabilityCheck | null>(null);
  return (
    <>
      <DataList
        label="Verdicts"
        rows={checks}
        rowKey={(c) => c.id}
        busy={busy}
        columns={columnsFor(setShown)}
        minWidth={960}
        card={(c) => <CheckCard check={c} onOpen={() => setShown(c)} />}
      />
      <Modal
        opened={shown !== null}
        onClose={() => setShown(null)}
        title="Verdict"
        centered
        size="lg"
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        {shown && <VerdictPanel verdict={shown} />}
      </Modal>
    </>
  );
}

export function CheckListSkeleton() {
  return <ListSkeleton label="Verdicts" columns={COLUMNS} />;
}
