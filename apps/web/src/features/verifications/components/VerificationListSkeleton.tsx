import { Paper, Skeleton, Stack } from '@mantine/core';
import { useCompactLayout } from '../../../lib/use-compact-layout';
import { VerificationsTableSkeleton } from './VerificationsTable';

/**
 * The activity log's placeholder while its rows load, as cards or a table like the rows will be. Its own module: the
 * route's pending state is part of the app's start-up bundle, and the cards (with their Sort by select) are not.
 */
export function VerificationListSkeleton() {
  return useCompactLayout() ? <VerificationCardsSkeleton /> : <VerificationsTableSkeleton />;
}

export function VerificationCardsSkeleton({ rows = 5 }: { rows?: number }) {
  return (
    <Stack gap="sm" aria-busy="true" aria-label="Loading verifications">
      {Array.from({ length: rows }, (_, row) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders without identity
        <Paper key={row} withBorder radius="md" p="sm">
          <Skeleton height={16} width="55%" radius="sm" mb="sm" />
          <Skeleton height={12} radius="sm" mb={6} />
          <Skeleton height={12} width="80%" radius="sm" />
        </Paper>
      ))}
    </Stack>
  );
}
