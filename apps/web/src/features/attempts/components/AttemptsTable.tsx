import { Table } from '@mantine/core';
import { formatDateTime, methodLabels } from '../../../lib/format';
import { type AttemptRowsProps, PhoneCell, ReasonCell, VerifiedCell } from './AttemptCells';
import { attemptColumns } from './columns';
import { DeliveryStatusBadge } from './DeliveryStatusBadge';

export function AttemptsTableHead() {
  return (
    <Table.Thead>
      <Table.Tr>
        {attemptColumns.map((label) => (
          <Table.Th key={label} scope="col">
            {label}
          </Table.Th>
        ))}
      </Table.Tr>
    </Table.Thead>
  );
}

/** The attempts on wide screens (AttemptList picks it). */
export function AttemptsTable({ attempts, busy = false }: AttemptRowsProps) {
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table
        aria-label="Codes sent"
        aria-busy={busy || undefined}
        verticalSpacing="sm"
        style={{ opacity: busy ? 0.6 : 1, transition: 'opacity 150ms' }}
      >
        <AttemptsTableHead />
        <Table.Tbody>
          {attempts.map((a) => (
            <Table.Tr key={a.id}>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                <time dateTime={a.created}>{formatDateTime(a.created)}</time>
              </Table.Td>
              <Table.Td>
                <PhoneCell attempt={a} />
              </Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{a.verifyFormName}</Table.Td>
              <Table.Td>{methodLabels[a.channel]}</Table.Td>
              <Table.Td>
                <DeliveryStatusBadge status={a.deliveryStatus} />
              </Table.Td>
              <Table.Td style={{ minWidth: 200 }}>
                <ReasonCell attempt={a} />
              </Table.Td>
              <Table.Td style={{ fontVariantNumeric: 'tabular-nums' }}>{a.codesEntered}</Table.Td>
              <Table.Td>
                <VerifiedCell attempt={a} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
