import { Container, Stack, Text, Title } from '@mantine/core';
import { usePageTitle } from '../../lib/page-title';
import { ButtonLink } from '../links';

/** SPEC §2: any unmatched path. */
export function NotFoundScreen() {
  usePageTitle('Page Not Found');
  return (
    <Container size="sm" py={80}>
      <Stack align="center" gap="md" ta="center">
        <Text fz={120} fw={900} lh={1} c="dimmed" aria-hidden="true">
          404
        </Text>
        <Title order={1}>Page Not Found</Title>
        <Text c="dimmed" size="lg">
          Looks like this page was moved, deleted, or maybe... never even existed.
        </Text>
        <ButtonLink to="/dashboard" size="md">
          Back to home
        </ButtonLink>
      </Stack>
    </Container>
  );
}

/** The plain fallback (a resource that could not be found inside a page). */
export function PlainNotFound() {
  return <Text p="md">Not Found</Text>;
}
