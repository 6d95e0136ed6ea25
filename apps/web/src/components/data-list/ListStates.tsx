import { Box, Button } from '@mantine/core';
import { IconAlertCircle, IconFilterOff } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { errorDisplayText } from '../../lib/error-text';
import { formatCount } from '../../lib/format';
import { EmptyState } from '../layout/EmptyState';
import { ListPager } from '../layout/ListPager';

/** A page of a paged list, as the server answers it. */
export interface ListPage<Row> {
  count: number;
  pageNumber: number;
  pageSize: number;
  results: readonly Row[];
}

/** What ListStates reads of the list's query (a TanStack Query result fits). */
export interface ListQuery<Row> {
  data: ListPage<Row> | undefined;
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
  isPlaceholderData: boolean;
  /** Any fetch under way, the first or a retry: "Try again" spins while it runs. */
  isFetching: boolean;
}

/** The pager of a list: the page and size asked for, and what choosing another does. */
export interface ListPagerProps {
  pageNumber: number;
  pageSize: number;
  pageSizes: readonly number[];
  onPage: (pageNumber: number) => void;
  onPageSize: (pageSize: number) => void;
}

/**
 * The pager of a list whose page and size live in the URL's search: each choice is a new history entry (Back returns
 * to the page before), and a new size starts again at page 1.
 */
export function searchPager(
  search: { pageNumber: number; pageSize: number },
  pageSizes: readonly number[],
  go: (patch: { pageNumber: number; pageSize?: number }) => void,
): ListPagerProps {
  return {
    pageNumber: search.pageNumber,
    pageSize: search.pageSize,
    pageSizes,
    onPage: (pageNumber) => go({ pageNumber }),
    onPageSize: (pageSize) => go({ pageSize, pageNumber: 1 }),
  };
}

export interface ListStatesProps<Row> {
  query: ListQuery<Row>;
  /** The placeholder while the first page loads. */
  skeleton: ReactNode;
  /** The icon of the empty states: what the list holds. */
  icon: ReactNode;
  /** "The codes sent could not be loaded". */
  errorTitle: string;
  /** Shown when there is nothing at all yet (no filter chosen): what will be listed here. Undefined: never. */
  never?: { title: string; text: ReactNode };
  /** Shown when the filters match nothing, with a Clear filters button. */
  noMatch: { title: string; text: ReactNode; onClear: () => void };
  /** "codes sent": the words of "There are 12 matching codes sent, on fewer pages." */
  rowsNoun: string;
  pager: ListPagerProps;
  /** The rows, dimmed (`busy`) while the next page loads. */
  children: (rows: readonly Row[], busy: boolean) => ReactNode;
}

/**
 * A paged list's body, in one order for every list: the skeleton while the first page loads; the error with Try
 * again; "nothing yet"; "nothing matches" with Clear filters; a bookmarked page past the end with a way back to the
 * first; else the rows and the pager under them.
 */
export function ListStates<Row>({
  query,
  skeleton,
  icon,
  errorTitle,
  never,
  noMatch,
  rowsNoun,
  pager,
  children,
}: ListStatesProps<Row>) {
  const { data, isPending, isError, error, refetch, isPlaceholderData, isFetching } = query;
  if (isPending) return skeleton;
  if (isError || data === undefined)
    return (
      <EmptyState icon={<IconAlertCircle />} title={errorTitle}>
        {errorDisplayText(error)}{' '}
        <Button variant="subtle" size="compact-sm" onClick={() => void refetch()} loading={isFetching}>
          Try again
        </Button>
      </EmptyState>
    );
  if (never && data.count === 0)
    return (
      <EmptyState icon={icon} title={never.title}>
        {never.text}
      </EmptyState>
    );
  if (data.count === 0)
    return (
      <EmptyState icon={<IconFilterOff />} title={noMatch.title}>
        {noMatch.text}
        {/* A span: the empty state's words are a paragraph, which holds no block elements. */}
        <Box component="span" display="block" mt="md">
          <Button variant="default" onClick={noMatch.onClear}>
            Clear filters
          </Button>
        </Box>
      </EmptyState>
    );
  if (data.results.length === 0)
    // A bookmarked page past the end (rows were deleted, or the page size grew).
    return (
      <EmptyState icon={icon} title="This page is empty">
        There are {formatCount(data.count)} matching {rowsNoun}, on fewer pages.
        {/* A span: the empty state's words are a paragraph, which holds no block elements. */}
        <Box component="span" display="block" mt="md">
          <Button variant="default" onClick={() => pager.onPage(1)}>
            Go to the first page
          </Button>
        </Box>
      </EmptyState>
    );
  return (
    <>
      {children(data.results, isPlaceholderData)}
      <ListPager page={{ ...data, shown: data.results.length }} {...pager} />
    </>
  );
}
