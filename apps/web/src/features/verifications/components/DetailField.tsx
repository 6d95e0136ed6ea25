import { Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { formatDateTime } from '../../../lib/format';

/** One label and value of a verification's description lists: a screen reader reads each value with its label. */
export function DetailField({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text component="dt" size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text component="dd" m={0} size="sm" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Stack>
  );
}

export const notRecorded = (
  <Text span size="sm" c="dimmed">
    Not recorded
  </Text>
);

/** An instant in the reader's locale and zone, machine-readable too; "Not recorded" when there is none. */
export function Instant({ iso }: { iso: string | null }) {
  return iso ? <time dateTime={iso}>{formatDateTime(iso)}</time> : notRecorded;
}
