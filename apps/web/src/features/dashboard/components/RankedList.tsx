import { Group, Progress, Skeleton, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { formatCount, MUTED } from '../format';

export interface RankedItem {
  key: string;
  /** The name shown (a link for forms). */
  label: ReactNode;
  count: number;
}

/**
 * Names with their counts, largest first, each with a bar scaled to the largest. The bar is decoration: the count is
 * text beside the name, so a screen reader hears "Loan application, 12" once.
 */
export function RankedList({
  items,
  label,
  empty,
}: {
  items: readonly RankedItem[];
  /** The list's accessible name. */
  label: string;
  empty: string;
}) {
  if (items.length === 0)
    return (
      <Text size="sm" c={MUTED}>
        {empty}
      </Text>
    );
  const max = Math.max(...items.map((item) => item.count), 1);
  return (
    <Stack component="ol" gap="sm" m={0} p={0} aria-label={label} style={{ listStyle: 'none' }}>
      {items.map((item) => (
        <li key={item.key}>
          <Group justify="space-between" gap="xs" wrap="nowrap" mb={4}>
            <Text size="sm" style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
              {item.label}
            </Text>
            <Text size="sm" fw={600} style={{ fontVariantNumeric: 'tabular-nums' }}>
              {formatCount(item.count)}
            </Text>
          </Group>
          <Progress value={(item.count / max) * 100} size="sm" radius="xl" aria-hidden="true" />
        </li>
      ))}
    </Stack>
  );
}

export function RankedListSkeleton({ rows = 4 }: { rows?: number }) {
  return (
    <Stack gap="sm">
      {Array.from({ length: rows }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders without identity
        <Stack key={i} gap={6}>
          <Skeleton height={14} width="70%" radius="sm" />
          <Skeleton height={8} radius="xl" />
        </Stack>
      ))}
    </Stack>
  );
}
