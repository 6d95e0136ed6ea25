import { Paper, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** One section of a page: a bordered card named by its heading (the section's accessible name). */
export function SectionCard({
  title,
  maw,
  children,
}: {
  title: string;
  /** Cards beside a narrow page's own (Company Info) keep its width. */
  maw?: number;
  children: ReactNode;
}) {
  return (
    <Paper
      withBorder
      radius="md"
      p={{ base: 'md', sm: 'lg' }}
      maw={maw}
      component="section"
      aria-label={title}
    >
      <Stack gap="md">
        <Title order={2} size="h4">
          {title}
        </Title>
        {children}
      </Stack>
    </Paper>
  );
}
