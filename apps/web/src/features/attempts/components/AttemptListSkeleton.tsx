import { Paper, Skeleton, Stack, Table } from '@mantine/core';
import { useCompactLayout } from '../../../lib/use-compact-layout';
import { attemptColumns } from './columns';

/**
 * The placeholder while the attempts load, as cards or a table like the rows will be. Its own module, importing
 * neither the table nor the cards: the route's pending state may load before the route's own chunk.
 */
export function AttemptListSkeleton({ rows = 5 }: { rows?: number }) {
  const compact = useCompactLayout();
  if (compact) {
    return (
      <Stack gap="sm" aria-busy="true" aria-label="Loading codes sent">
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
  return (
    <Table aria-label="Loading codes sent" aria-busy="true">
      <Table.Thead>
        <Table.Tr>
          {attemptColumns.map((label) => (
            <Table.Th key={label} scope="col">
              {label}
            </Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {Array.from({ length: rows }, (_, row) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders without identity
          <Table.Tr key={row}>
            {attemptColumns.map((label) => (
              <Table.Td key={label}>
                <Skeleton height={14} radius="sm" />
              </Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
