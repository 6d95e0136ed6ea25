import { Group, type MantineSpacing, NativeSelect } from '@mantine/core';
import type { ReactNode } from 'react';
import { ListStates, type ListStatesProps } from './ListStates';

/** The list's Status select, bound to where the page keeps its filters (the URL's search). */
export interface StatusFilter<Status extends string> {
  /** The status chosen; undefined for every status. */
  value: Status | undefined;
  /** Every status, in the select's order. */
  statuses: readonly Status[];
  labels: Readonly<Record<Status, string>>;
  /** A status chosen, or undefined for every status (the page goes back to its first page). */
  onChange: (status: Status | undefined) => void;
}

/** Filters shown before the status (a search box), with what an empty list says while any of them is in use. */
export interface OtherFilters {
  controls: ReactNode;
  /** One of them narrows the list now. */
  active: boolean;
  /** Said instead of the status's "nothing matches" while `active`. */
  noMatch: ListStatesProps<unknown>['noMatch'];
}

export interface StatusFilteredListProps<Row, Status extends string>
  extends Pick<ListStatesProps<Row>, 'query' | 'skeleton' | 'icon' | 'pager' | 'children'> {
  /**
   * "legal holds": the rows' noun names the filter bar ("Filter legal holds"), the error ("The legal holds could not
   * be loaded") and a page past the end.
   */
  rowsNoun: string;
  status: StatusFilter<Status>;
  otherFilters?: OtherFilters;
  /** Shown, without filters, while there has never been a row. */
  never: { title: string; text: ReactNode };
  /** "No holds with this status": only a status is chosen and nothing has it. */
  noMatchTitle: string;
  /** Space under the filters, for a page that does not space its parts itself (not a Stack). */
  filtersMb?: MantineSpacing;
}

/**
 * A paged list filtered by status (legal holds, privacy requests, revocations): the filter bar (other filters, then
 * Status with "Every status" first), then the list's states (ListStates) and rows. Until there has ever been a row, the
 * filters are hidden and the "nothing yet" state shows; once a filter is chosen, nothing matching offers Clear filters.
 */
export function StatusFilteredList<Row, Status extends string>({
  query,
  rowsNoun,
  status,
  otherFilters,
  never,
  noMatchTitle,
  filtersMb,
  ...states
}: StatusFilteredListProps<Row, Status>) {
  const filtered = status.value !== undefined || otherFilters?.active === true;
  // A placeholder (the previous filter's page) says nothing about whether the list was ever empty.
  const isNever = query.data?.count === 0 && !filtered && !query.isPlaceholderData;
  const options = [
    { value: '', label: 'Every status' },
    ...status.statuses.map((value) => ({ value, label: status.labels[value] })),
  ];

  return (
    <>
      {!isNever && (
        <Group
          align="flex-end"
          gap="sm"
          wrap="wrap"
          mb={filtersMb}
          role="search"
          aria-label={`Filter ${rowsNoun}`}
        >
          {otherFilters?.controls}
          <NativeSelect
            label="Status"
            data={options}
            value={status.value ?? ''}
            onChange={(event) => {
              const value = event.currentTarget.value;
              status.onChange(status.statuses.find((known) => known === value));
            }}
          />
        </Group>
      )}
      <ListStates
        query={query}
        errorTitle={`The ${rowsNoun} could not be loaded`}
        never={isNever ? never : undefined}
        noMatch={
          otherFilters?.active
            ? otherFilters.noMatch
            : {
                title: noMatchTitle,
                text: 'Choose another status, or every status.',
                onClear: () => status.onChange(undefined),
              }
        }
        rowsNoun={rowsNoun}
        {...states}
      />
    </>
  );
}
