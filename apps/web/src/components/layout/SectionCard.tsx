import { Paper, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * The card of one section of a page: bordered, padded more on wider screens, and a `<section>` named by its heading
 * (`aria-labelledby`, when the heading is the card's own: an h1, a heading with actions beside it) or by `aria-label`.
 */
export function SectionPaper({
  maw,
  children,
  ...name
}: {
  maw?: number;
  children: ReactNode;
} & ({ 'aria-labelledby': string } | { 'aria-label': string })) {
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} maw={maw} component="section" {...name}>
      {children}
    </Paper>
  );
}

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
    <SectionPaper maw={maw} aria-label={title}>
      <Stack gap="md">
        <Title order={2} size="h4">
          {title}
        </Title>
        {children}
      </Stack>
    </SectionPaper>
  );
}
