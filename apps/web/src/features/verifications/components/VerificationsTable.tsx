import { Badge, Group, Skeleton, Table, Text, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowsSort, IconArrowUp } from '@tabler/icons-react';
import { useNavigate } from '@tanstack/react-router';
import type {
  Verification,
  VerificationSearch,
  VerificationSort,
  VerificationSortKey,
} from '@veriform/contracts';
import type { MouseEvent } from 'react';
import { type DataColumn, DataTable } from '../../../components/data-list/DataList';
import { AnchorLink } from '../../../components/links';
import { TestBadge } from '../../../components/TestBadge';
import { formatDateTime, formatPhoneForReading, methodLabels } from '../../../lib/format';
import { sourceLabels } from '../source';
import { RevokedBadge } from './RevokedMark';

type Column = { label: string; sortKey?: VerificationSortKey; visibleFrom?: 'sm' | 'md' };

/** SPEC §3's verification fields and the source; Method and Source have no sort key (SPEC §2's `o` list), so their headers are plain text. */
const columns: readonly Column[] = [
  { label: 'Cell phone', sortKey: 'cellPhone' },
  { label: 'External ref', sortKey: 'externalRefId' },
  // The form's id: what an integration knows a form by, and the order forms were created in (SPEC §2's verifyFormId).
  { label: 'Form ID', sortKey: 'verifyFormId', visibleFrom: 'md' },
  { label: 'Form', sortKey: 'verifyFormName' },
  { label: 'Category', sortKey: 'verifyFormCategory', visibleFrom: 'md' },
  { label: 'Method' },
  // Hosted page or API (issue #15): no sort key either; the filter bar narrows by it.
  { label: 'Source' },
  { label: 'Created', sortKey: 'created' },
];

/** The sort a header click asks for: the same column flips its direction; another column starts ascending. */
export function nextSort(current: VerificationSort, key: VerificationSortKey): VerificationSort {
  if (current === key) return `-${key}`;
  return key;
}

function ariaSort(
  current: VerificationSort,
  key: VerificationSortKey,
): 'ascending' | 'descending' | undefined {
  if (current === key) return 'ascending';
  if (current === `-${key}`) return 'descending';
  return undefined;
}

function SortIcon({ direction }: { direction: 'ascending' | 'descending' | undefined }) {
  const Icon =
    direction === 'ascending' ? IconArrowUp : direction === 'descending' ? IconArrowDown : IconArrowsSort;
  return <Icon size={14} aria-hidden="true" style={{ opacity: direction ? 1 : 0.4, flex: 'none' }} />;
}

function Head({ sort, onSort }: { sort: VerificationSort; onSort?: (sort: VerificationSort) => void }) {
  return (
    <Table.Thead>
      <Table.Tr>
        {columns.map((column) => {
          const direction = column.sortKey ? ariaSort(sort, column.sortKey) : undefined;
          const { sortKey } = column;
          return (
            <Table.Th key={column.label} scope="col" aria-sort={direction} visibleFrom={column.visibleFrom}>
              {sortKey && onSort ? (
                // A button inside the header (not a clickable th): reachable by keyboard, named by its text, and
                // the th's aria-sort tells the current order.
                <UnstyledButton onClick={() => onSort(nextSort(sort, sortKey))} fw={700} fz="sm">
                  <Group gap={4} wrap="nowrap">
                    {column.label}
                    <SortIcon direction={direction} />
                  </Group>
                </UnstyledButton>
              ) : (
                column.label
              )}
            </Table.Th>
          );
        })}
      </Table.Tr>
    </Table.Thead>
  );
}

export function dimmedDash() {
  return (
    <Text span size="sm" c="dimmed">
      —
    </Text>
  );
}

/**
 * A click anywhere on a verification's row (or card) opens it, as its phone link does; the link itself, and text
 * being selected, are left to the browser.
 */
export function useOpenVerificationOnClick(search: VerificationSearch) {
  const navigate = useNavigate();
  return (verification: Verification) => (event: MouseEvent<HTMLElement>) => {
    if ((event.target as Element).closest('a') || window.getSelection()?.toString()) return;
    void navigate({
      to: '/activity-log/$verificationId',
      params: { verificationId: String(verification.id) },
      search,
    });
  };
}

/** What the activity log's table and its cards show: one page of rows, under the log's search. */
export type VerificationRowsProps = {
  verifications: readonly Verification[];
  search: VerificationSearch;
  onSort: (sort: VerificationSort) => void;
  /** The next page is loading while this one stays on screen. */
  busy?: boolean;
};

/**
 * The activity log's table (wide screens; VerificationList picks it). Each row opens its verification: the phone
 * number is the link (keyboard, middle-click, copy link), and a click anywhere else in the row does the same for the
 * mouse. The link keeps the log's search params, so "Back to Activity Log" returns to the same filters, sort and page.
 */
export function VerificationsTable({ verifications, search, onSort, busy = false }: VerificationRowsProps) {
  const open = useOpenVerificationOnClick(search);
  return (
    <DataTable
      label="Verifications"
      rows={verifications}
      rowKey={(v) => v.id}
      busy={busy}
      columns={cells(search)}
      minWidth={640}
      highlightOnHover
      head={<Head sort={search.o} onSort={onSort} />}
      rowProps={(v) => ({ onClick: open(v), style: { cursor: 'pointer' } })}
    />
  );
}

/**
 * The phone number, the link to the verification (it keeps the log's search), with a Test badge on test data and a
 * Revoked one, with its date, once the consumer revoked consent since (issue #35). The badges wrap under the number
 * when the cell or the card is narrow.
 */
export function PhoneLink({
  verification: v,
  search,
}: {
  verification: Verification;
  search: VerificationSearch;
}) {
  return (
    <Group gap="xs" wrap="wrap" style={{ rowGap: 4 }}>
      <AnchorLink
        to="/activity-log/$verificationId"
        params={{ verificationId: String(v.id) }}
        search={search}
        fw={500}
        style={{ whiteSpace: 'nowrap' }}
      >
        {formatPhoneForReading(v.cellPhone)}
      </AnchorLink>
      {v.isTest && <TestBadge />}
      {v.revokedAt && <RevokedBadge revokedAt={v.revokedAt} />}
    </Group>
  );
}

/** The cells of a row, in the order of `columns` (whose Head draws the header). */
const cells = (search: VerificationSearch): DataColumn<Verification>[] => [
  { label: 'Cell phone', cell: (v) => <PhoneLink verification={v} search={search} /> },
  {
    label: 'External ref',
    cell: (v) => v.externalRefId || dimmedDash(),
    td: { style: { overflowWrap: 'anywhere' } },
  },
  {
    label: 'Form ID',
    cell: (v) => v.verifyFormId,
    td: { visibleFrom: 'md', style: { fontVariantNumeric: 'tabular-nums' } },
  },
  { label: 'Form', cell: (v) => v.verifyFormName, td: { style: { overflowWrap: 'anywhere' } } },
  {
    label: 'Category',
    cell: (v) =>
      v.verifyFormCategory ? (
        <Badge variant="light" color="gray" tt="none">
          {v.verifyFormCategory}
        </Badge>
      ) : (
        dimmedDash()
      ),
    td: { visibleFrom: 'md' },
  },
  { label: 'Method', cell: (v) => methodLabels[v.verificationMethod] },
  { label: 'Source', cell: (v) => sourceLabels[v.source] },
  {
    label: 'Created',
    cell: (v) => <time dateTime={v.created}>{formatDateTime(v.created)}</time>,
    td: { style: { whiteSpace: 'nowrap' } },
  },
];

export function VerificationsTableSkeleton({ rows = 5 }: { rows?: number }) {
  return (
    <Table aria-label="Loading verifications" aria-busy="true">
      <Head sort="-created" />
      <Table.Tbody>
        {Array.from({ length: rows }, (_, row) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders without identity
          <Table.Tr key={row}>
            {columns.map((column) => (
              <Table.Td key={column.label} visibleFrom={column.visibleFrom}>
                <Skeleton height={14} radius="sm" />
              </Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
