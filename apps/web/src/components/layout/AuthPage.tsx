import { Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { usePageTitle } from '../../lib/page-title';

interface AuthPageProps {
  title: string;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
}

/** One card of the public (auth) pages: heading, optional text, content; narrow enough for a phone. */
export function AuthPage({ title, description, children, footer }: AuthPageProps) {
  usePageTitle(title);
  return (
    <Stack gap="md">
      <Paper withBorder shadow="sm" radius="md" p={{ base: 'md', xs: 'xl' }}>
        <Stack gap="md">
          <Title order={1} size="h2">
            {title}
          </Title>
          {description && (
            <Text c="dimmed" size="sm" component="div">
              {description}
            </Text>
          )}
          {children}
        </Stack>
      </Paper>
      {footer && (
        <Text ta="center" size="sm" component="div">
          {footer}
        </Text>
      )}
    </Stack>
  );
}
