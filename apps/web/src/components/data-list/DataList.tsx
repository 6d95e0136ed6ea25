import {
  Box,
  Paper,
  Stack,
  Table,
  type TableTdProps,
  type TableThProps,
  type TableTrProps,
} from '@mantine/core';
import type { CSSProperties, MouseEventHandler, ReactNode } from 'react';
import { useCompactLayout } from '../../lib/use-compact-layout';

/** One column of the desktop table: its header, and the cell of a row. */
export interface DataColumn<Row> {
  /** The header's words (screen readers hear them even when `header` draws something else). */
  label: string;
  /** What the header shows instead of the label (a sort button, visually hidden words). */
  header?: ReactNode;
  cell: (row: Row) => ReactNode;
  /** The cell's props: its style, alignment, width. */
  td?: TableTdProps;
  /** The header cell's props (`aria-sort`, `visibleFrom`, as the cells' `td`). */
  th?: TableThProps;
}

/** The `<dl>` grid of a card's labelled values: two columns, each value wrapping anywhere. */
export const cardFieldGrid = {
  display: 'grid',
  gridTemplateColumns: 'repeat(2, minmax(0, 1fr))',
  gap: 'var(--mantine-spacing-xs) var(--mantine-spacing-md)',
  margin: 0,
} as const;

/** A card's labelled values (DetailField each), two to a line. */
export function CardFields({ children }: { children: ReactNode }) {
  return (
    <Box component="dl" style={cardFieldGrid}>
      {children}
    </Box>
  );
}

/** Dims the rows on screen while the next page loads. */
const busyStyle = (busy: boolean) => ({ opacity: busy ? 0.6 : 1, transition: 'opacity 150ms' });

interface RowsProps<Row> {
  /** The list's accessible name: "Codes sent". */
  label: string;
  rows: readonly Row[];
  rowKey: (row: Row) => string | number;
  /** The next page is loading while this one stays on screen. */
  busy?: boolean;
}

export interface DataTableProps<Row> extends RowsProps<Row> {
  columns: readonly DataColumn<Row>[];
  /** Below it, the table scrolls sideways. */
  minWidth: number;
  highlightOnHover?: boolean;
  /** A row's own props (a click that opens it). */
  rowProps?: (row: Row) => TableTrProps;
  /** A header of its own (sortable columns), in place of the columns' labels. */
  head?: ReactNode;
}

/** The rows as a table (wide screens). */
export function DataTable<Row>({
  label,
  rows,
  rowKey,
  busy = false,
  columns,
  minWidth,
  highlightOnHover,
  rowProps,
  head,
}: DataTableProps<Row>) {
  return (
    <Table.ScrollContainer minWidth={minWidth}>
      <Table
        aria-label={label}
        aria-busy={busy || undefined}
        verticalSpacing="sm"
        highlightOnHover={highlightOnHover}
        style={busyStyle(busy)}
      >
        {head ?? (
          <Table.Thead>
            <Table.Tr>
              {columns.map((column) => (
                <Table.Th key={column.label} scope="col" {...column.th}>
                  {column.header ?? column.label}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
        )}
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={rowKey(row)} {...rowProps?.(row)}>
              {columns.map((column) => (
                <Table.Td key={column.label} {...column.td}>
                  {column.cell(row)}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

export interface DataCardsProps<Row> extends RowsProps<Row> {
  /** What one card holds: a heading line and its CardFields. */
  card: (row: Row) => ReactNode;
  /** A card's own props (a click that opens it). */
  cardProps?: (row: Row) => { onClick?: MouseEventHandler<HTMLElement>; style?: CSSProperties };
}

/** A list of cards (each its own `<li>`), named for screen readers. */
export function CardList({
  label,
  busy = false,
  children,
}: {
  label: string;
  busy?: boolean;
  children: ReactNode;
}) {
  return (
    <Stack
      component="ul"
      // list-style none drops the list role in some browsers: say it.
      role="list"
      aria-label={label}
      aria-busy={busy || undefined}
      gap="sm"
      p={0}
      m={0}
      style={{ listStyle: 'none', ...busyStyle(busy) }}
    >
      {children}
    </Stack>
  );
}

/** The rows as cards (phone width): every column of the table, nothing to scroll sideways. */
export function DataCards<Row>({ label, rows, rowKey, busy = false, card, cardProps }: DataCardsProps<Row>) {
  return (
    <CardList label={label} busy={busy}>
      {rows.map((row) => (
        <Paper key={rowKey(row)} component="li" withBorder radius="md" p="sm" {...cardProps?.(row)}>
          {card(row)}
        </Paper>
      ))}
    </CardList>
  );
}

export type DataListProps<Row> = DataTableProps<Row> & DataCardsProps<Row>;

/**
 * A list of rows: a table on wide screens, cards on small ones (below Mantine's `md`), so nothing is cut off or hidden
 * sideways. The columns describe the table; `card` lays out a row's card. Loading, empty and error states and the
 * pager are `ListStates`'s; the placeholder is `ListSkeleton` (its own light module).
 */
export function DataList<Row>(props: DataListProps<Row>) {
  return useCompactLayout() ? <DataCards {...props} /> : <DataTable {...props} />;
}

export type RowLayout = 'row' | 'card';

/**
 * A DataList whose rows are components of their own (each with its actions' state), drawn as a table row (`<tr>`) or
 * a card (`<li>`) as `layout` says: a table on wide screens under the columns' headers, cards on small ones.
 */
export function LayoutList({
  label,
  headers,
  minWidth,
  highlightOnHover,
  children,
}: {
  label: string;
  headers: readonly Pick<DataColumn<unknown>, 'label' | 'header' | 'th'>[];
  minWidth: number;
  highlightOnHover?: boolean;
  children: (layout: RowLayout) => ReactNode;
}) {
  if (useCompactLayout()) return <CardList label={label}>{children('card')}</CardList>;
  return (
    <Table.ScrollContainer minWidth={minWidth}>
      <Table aria-label={label} verticalSpacing="sm" highlightOnHover={highlightOnHover}>
        <Table.Thead>
          <Table.Tr>
            {headers.map((column) => (
              <Table.Th key={column.label} {...column.th}>
                {column.header ?? column.label}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{children('row')}</Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
