import { Paper, Skeleton, Stack, Table } from '@mantine/core';
import { useCompactLayout } from '../../lib/use-compact-layout';

interface SkeletonProps {
  /** "Loading codes sent". */
  label: string;
  rows?: number;
}

/** Cards of grey bars, as the phone-width cards will be. */
export function CardsSkeleton({ label, rows = 5 }: SkeletonProps) {
  return (
    <Stack gap="sm" role="group" aria-busy="true" aria-label={label}>
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

/** A column of a skeleton table: its header, and from which width it shows (as the real table's). */
export type SkeletonColumn = string | { label: string; visibleFrom?: 'sm' | 'md' };

const columnLabel = (column: SkeletonColumn) => (typeof column === 'string' ? column : column.label);
const columnFrom = (column: SkeletonColumn) => (typeof column === 'string' ? undefined : column.visibleFrom);

/** The table's real header over rows of grey bars, so nothing moves when the rows arrive. */
export function TableSkeleton({
  label,
  columns,
  rows = 5,
}: SkeletonProps & { columns: readonly SkeletonColumn[] }) {
  return (
    <Table aria-label={label} aria-busy="true">
      <Table.Thead>
        <Table.Tr>
          {columns.map((column) => (
            <Table.Th key={columnLabel(column)} scope="col" visibleFrom={columnFrom(column)}>
              {columnLabel(column)}
            </Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {Array.from({ length: rows }, (_, row) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders without identity
          <Table.Tr key={row}>
            {columns.map((column) => (
              <Table.Td key={columnLabel(column)} visibleFrom={columnFrom(column)}>
                <Skeleton height={14} radius="sm" />
              </Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** A few bars where a short list goes (API keys, endpoints). */
export function BarsSkeleton({
  label,
  rows = 3,
  height = 36,
  radius = 'sm',
}: SkeletonProps & { height?: number; radius?: 'sm' | 'md' }) {
  return (
    <Stack gap="xs" role="group" aria-busy="true" aria-label={label}>
      {Array.from({ length: rows }, (_, row) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders without identity
        <Skeleton key={row} height={height} radius={radius} />
      ))}
    </Stack>
  );
}

/**
 * The placeholder of a DataList while its rows load: cards at phone width, the table's header over grey rows wider.
 * Its own module, importing no table or cards of a feature: a route's pending state may load before the route's chunk.
 */
export function ListSkeleton({ label, columns, rows = 5 }: SkeletonProps & { columns: readonly string[] }) {
  return useCompactLayout() ? (
    <CardsSkeleton label={label} rows={rows} />
  ) : (
    <TableSkeleton label={label} columns={columns} rows={rows} />
  );
}
