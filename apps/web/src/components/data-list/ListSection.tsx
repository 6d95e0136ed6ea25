import { Box, Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { RetryAlert } from '../errors/RetryAlert';
import { EmptyState } from '../layout/EmptyState';

/** What ListSection reads of the list's query (a TanStack Query result fits). */
export interface ListSectionQuery<Row> {
  data: readonly Row[] | undefined;
  error: unknown;
  isPending: boolean;
  isFetching: boolean;
  refetch: () => unknown;
}

interface ListSectionProps<Row> {
  title: string;
  /** Under the title: what the list is, with a link to learn more. */
  description: ReactNode;
  /** Adds a row: beside the title once there are rows, inside the empty state before. */
  action: ReactNode;
  /** Between the heading and the rows (a limit reached). */
  notice?: ReactNode;
  query: ListSectionQuery<Row>;
  skeleton: ReactNode;
  /** "The API keys could not be loaded". */
  errorTitle: string;
  empty: { icon: ReactNode; title: string; text: ReactNode };
  list: (rows: readonly Row[]) => ReactNode;
  /** The section's dialogs. */
  children?: ReactNode;
}

/**
 * A settings page's list of everything of a kind (API keys, webhook endpoints): its heading and words, then the
 * skeleton, the error with Try again, the empty state with the first action, or the rows (a DataList).
 */
export function ListSection<Row>({
  title,
  description,
  action,
  notice,
  query,
  skeleton,
  errorTitle,
  empty,
  list,
  children,
}: ListSectionProps<Row>) {
  const { data: rows, error, isPending, isFetching, refetch } = query;
  let body: ReactNode;
  if (isPending) body = skeleton;
  else if (!rows)
    body = <RetryAlert title={errorTitle} error={error} onRetry={refetch} retrying={isFetching} />;
  else if (rows.length === 0)
    body = (
      <EmptyState icon={empty.icon} title={empty.title}>
        {empty.text}
        <Box component="span" display="block" mt="md">
          {action}
        </Box>
      </EmptyState>
    );
  else body = list(rows);

  return (
    <Stack gap="md" maw={1100}>
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <div>
          <Title order={2} size="h4">
            {title}
          </Title>
          <Text size="sm" c="dimmed" maw={640}>
            {description}
          </Text>
        </div>
        {rows && rows.length > 0 && action}
      </Group>
      {notice}
      {body}
      {children}
    </Stack>
  );
}
