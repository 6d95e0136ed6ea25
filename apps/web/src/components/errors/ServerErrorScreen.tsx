import { Anchor, Button, Container, Group, Stack, Text, Title } from '@mantine/core';
import { SUPPORT_EMAIL } from '@veriform/contracts';
import { usePageTitle } from '../../lib/page-title';
import { AnchorLink } from '../links';

/** SPEC §2: a server error ("Oh dear."); also the generic 500 page. `onRetry` resets the error and reloads data. */
export function ServerErrorScreen({ onRetry }: { onRetry?: () => void }) {
  usePageTitle('Server error');
  return (
    <Container size="sm" py={80}>
      <Stack align="center" gap="md" ta="center">
        <Title order={1}>Oh dear.</Title>
        <Text size="lg">
          Something went wrong on our side. Our team has been notified and is looking into it.
        </Text>
        <Text c="dimmed">
          If the problem continues, please contact support at{' '}
          <Anchor href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</Anchor>.
        </Text>
        <Group>
          {onRetry && <Button onClick={onRetry}>Try again</Button>}
          <AnchorLink to="/">Go to home</AnchorLink>
        </Group>
      </Stack>
    </Container>
  );
}
