import { Box, Group } from '@mantine/core';
import type { VerificationAttempt } from '@veriform/contracts';
import { CardFields, type DataColumn, DataList } from '../../../components/data-list/DataList';
import { DetailField } from '../../../components/layout/DetailField';
import { formatDateTime, methodLabels } from '../../../lib/format';
import { type AttemptRowsProps, PhoneCell, ReasonCell, VerifiedCell } from './AttemptCells';
import { attemptColumns } from './columns';
import { DeliveryStatusBadge } from './DeliveryStatusBadge';

function Created({ attempt }: { attempt: VerificationAttempt }) {
  return <time dateTime={attempt.created}>{formatDateTime(attempt.created)}</time>;
}

const cells: Record<(typeof attemptColumns)[number], Omit<DataColumn<VerificationAttempt>, 'label'>> = {
  Created: { cell: (a) => <Created attempt={a} />, td: { style: { whiteSpace: 'nowrap' } } },
  'Cell phone': { cell: (a) => <PhoneCell attempt={a} /> },
  Form: { cell: (a) => a.verifyFormName, td: { style: { overflowWrap: 'anywhere' } } },
  Channel: { cell: (a) => methodLabels[a.channel] },
  'Delivery status': { cell: (a) => <DeliveryStatusBadge status={a.deliveryStatus} /> },
  Reason: { cell: (a) => <ReasonCell attempt={a} />, td: { style: { minWidth: 200 } } },
  'Codes entered': { cell: (a) => a.codesEntered, td: { style: { fontVariantNumeric: 'tabular-nums' } } },
  Verified: { cell: (a) => <VerifiedCell attempt={a} /> },
};

/** The table's columns, in the order `attemptColumns` names them (the skeleton's header too). */
const columns: DataColumn<VerificationAttempt>[] = attemptColumns.map((label) => ({
  label,
  ...cells[label],
}));

/** A card: every column of the table, the reason on its own line (the longest text, and the one that matters). */
function AttemptCard({ attempt: a }: { attempt: VerificationAttempt }) {
  return (
    <>
      <Group justify="space-between" gap="xs" wrap="wrap" mb="xs" align="flex-start">
        <PhoneCell attempt={a} />
        <DeliveryStatusBadge status={a.deliveryStatus} />
      </Group>
      <CardFields>
        <DetailField label="Created">
          <Created attempt={a} />
        </DetailField>
        <DetailField label="Channel">{methodLabels[a.channel]}</DetailField>
        <DetailField label="Form">{a.verifyFormName}</DetailField>
        <DetailField label="Codes entered">{a.codesEntered}</DetailField>
        <DetailField label="Verified">
          <VerifiedCell attempt={a} />
        </DetailField>
      </CardFields>
      <Box component="dl" mt="xs" mb={0}>
        <DetailField label="Reason">
          <ReasonCell attempt={a} />
        </DetailField>
      </Box>
    </>
  );
}

/** The attempts: a table on wide screens, cards on small ones (nothing cut off or hidden sideways). */
export function AttemptList({ attempts, busy = false }: AttemptRowsProps) {
  return (
    <DataList
      label="Codes sent"
      rows={attempts}
      rowKey={(a) => a.id}
      busy={busy}
      columns={columns}
      minWidth={760}
      card={(a) => <AttemptCard attempt={a} />}
    />
  );
}
