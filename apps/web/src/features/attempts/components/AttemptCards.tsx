import { Box, Group, Paper, Stack } from '@mantine/core';
import { DetailField } from '../../../components/layout/DetailField';
import { formatDateTime, methodLabels } from '../../../lib/format';
import { type AttemptRowsProps, PhoneCell, ReasonCell, VerifiedCell } from './AttemptCells';
import { DeliveryStatusBadge } from './DeliveryStatusBadge';

const fieldGrid = {
  display: 'grid',
  gridTemplateColumns: 'repeat(2, minmax(0, 1fr))',
  gap: 'var(--mantine-spacing-xs) var(--mantine-spacing-md)',
  margin: 0,
} as const;

/**
 * The attempts on small screens (AttemptList picks it): one card per code sent with every column of the table and
 * nothing to scroll sideways.
 */
export function AttemptCards({ attempts, busy = false }: AttemptRowsProps) {
  return (
    <Stack
      component="ul"
      // list-style none drops the list role in some browsers: say it.
      role="list"
      aria-label="Codes sent"
      aria-busy={busy || undefined}
      gap="sm"
      p={0}
      m={0}
      style={{ listStyle: 'none', opacity: busy ? 0.6 : 1, transition: 'opacity 150ms' }}
    >
      {attempts.map((a) => (
        <Paper key={a.id} component="li" withBorder radius="md" p="sm">
          <Group justify="space-between" gap="xs" wrap="wrap" mb="xs" align="flex-start">
            <PhoneCell attempt={a} />
            <DeliveryStatusBadge status={a.deliveryStatus} />
          </Group>
          <Box component="dl" style={fieldGrid}>
            <DetailField label="Created">
              <time dateTime={a.created}>{formatDateTime(a.created)}</time>
            </DetailField>
            <DetailField label="Channel">{methodLabels[a.channel]}</DetailField>
            <DetailField label="Form">{a.verifyFormName}</DetailField>
            <DetailField label="Codes entered">{a.codesEntered}</DetailField>
            <DetailField label="Verified">
              <VerifiedCell attempt={a} />
            </DetailField>
          </Box>
          {/* Its own list, the card's full width: the longest text, and the one that matters. */}
          <Box component="dl" mt="xs" mb={0}>
            <DetailField label="Reason">
              <ReasonCell attempt={a} />
            </DetailField>
          </Box>
        </Paper>
      ))}
    </Stack>
  );
}
