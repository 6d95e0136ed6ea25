import { Group, Pagination, Text } from '@mantine/core';
import { formatCount } from '../../lib/format';
import { LabelledSelect } from '../form/LabelledSelect';

/** "Showing 11–20 of 1,234". */
export function showingText(pageNumber: number, pageSize: number, count: number, shown: number): string {
  const first = (pageNumber - 1) * pageSize + 1;
  return `Showing ${formatCount(first)}–${formatCount(first + shown - 1)} of ${formatCount(count)}`;
}

/**
 * Under a paged list (the activity log's verifications and attempts): what is shown of how many, rows per page, and
 * the page buttons (only with more than one page). Controlled: the route keeps the page and its size in the URL.
 */
export function ListPager({
  page,
  pageNumber,
  pageSize,
  pageSizes,
  onPage,
  onPageSize,
}: {
  /** The page on screen, as the server answered it (while the next one loads, still the previous one). */
  page: { count: number; pageNumber: number; pageSize: number; shown: number };
  /** The page and size asked for (the URL's). */
  pageNumber: number;
  pageSize: number;
  pageSizes: readonly number[];
  onPage: (pageNumber: number) => void;
  onPageSize: (pageSize: number) => void;
}) {
  return (
    <Group justify="space-between" mt="md" wrap="wrap" gap="sm">
      <Text size="sm" c="dimmed" aria-live="polite">
        {showingText(page.pageNumber, page.pageSize, page.count, page.shown)}
      </Text>
      <Group gap="md" wrap="wrap">
        <Group gap="xs" wrap="nowrap">
          <Text size="sm" component="span" aria-hidden="true">
            Rows per page
          </Text>
          <LabelledSelect
            label="Rows per page"
            hideLabel
            data={pageSizes.map((size) => ({ value: String(size), label: String(size) }))}
            value={String(pageSize)}
            onChange={(value) => value && onPageSize(Number(value))}
            w={80}
          />
        </Group>
        {page.count > page.pageSize && (
          <Pagination
            total={Math.ceil(page.count / page.pageSize)}
            value={pageNumber}
            onChange={onPage}
            getControlProps={(control) =>
              control === 'next'
                ? { 'aria-label': 'Next page' }
                : control === 'previous'
                  ? { 'aria-label': 'Previous page' }
                  : {}
            }
            getItemProps={(page) => ({ 'aria-label': `Page ${page}` })}
          />
        )}
      </Group>
    </Group>
  );
}
