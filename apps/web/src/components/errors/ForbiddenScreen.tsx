import { Container, Stack, Text, Title } from '@mantine/core';
import { usePageTitle } from '../../lib/page-title';
import { AnchorLink } from '../links';

/** SPEC §2: a permission error on a page. */
export function ForbiddenScreen() {
  usePageTitle('Access denied');
  return (
    <Container size="sm" py={80}>
      <Stack align="center" gap="md" ta="center">
        <Text fz={80} fw={900} lh={1} c="dimmed" aria-hidden="true">
          403
        </Text>
        <Title order={1} size="h2">
          Sorry, you do not have access to this page.
        </Title>
        <AnchorLink to="/">Go to home</AnchorLink>
      </Stack>
    </Container>
  );
}
