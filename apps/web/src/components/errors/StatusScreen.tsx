import { Container, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { usePageTitle } from '../../lib/page-title';

/** A whole-page error with its HTTP status drawn large above what it says (403, 404). */
export function StatusScreen(props: {
  status: number;
  statusSize: number;
  pageTitle: string;
  children: ReactNode;
}) {
  usePageTitle(props.pageTitle);
  return (
    <Container size="sm" py={80}>
      <Stack align="center" gap="md" ta="center">
        <Text fz={props.statusSize} fw={900} lh={1} c="dimmed" aria-hidden="true">
          {props.status}
        </Text>
        {props.children}
      </Stack>
    </Container>
  );
}
