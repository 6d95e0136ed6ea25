import { Paper, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** One section of the form page: a bordered card named by its heading (the section's accessible name). */
export function SectionCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} component="section" aria-label={title}>
      <Stack gap="md">
        <Title order={2} size="h4">
          {title}
        </Title>
        {children}
      </Stack>
    </Paper>
  );
}
