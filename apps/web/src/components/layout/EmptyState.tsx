import { Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import type { ReactNode } from 'react';

/** A calm placeholder for a list or page with nothing to show yet. */
export function EmptyState({
  icon,
  title,
  children,
}: {
  icon: ReactNode;
  title: string;
  children?: ReactNode;
}) {
  return (
    <Paper withBorder radius="md" p="xl">
      <Stack align="center" gap="xs" ta="center">
        <ThemeIcon size={48} radius="xl" variant="light" aria-hidden="true">
          {icon}
        </ThemeIcon>
        <Text fw={600}>{title}</Text>
        {/* A div, not Text's <p>: the words are often followed by an action (a Group of buttons), which a <p> cannot
            hold (React warned of invalid nesting in the activity log's and the forms' empty states). */}
        {children && (
          <Text component="div" c="dimmed" size="sm" maw={420}>
            {children}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
