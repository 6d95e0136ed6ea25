import { Button, Code, Container, Stack, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useId } from 'react';

/** SPEC §2: the router's default error display. */
export function DefaultErrorScreen({ error }: { error: unknown }) {
  const [shown, { toggle }] = useDisclosure(false);
  const detailsId = useId();
  const message = error instanceof Error ? error.message : String(error);
  return (
    <Container size="sm" py="xl">
      <Stack align="flex-start" gap="sm">
        <Title order={1} size="h3">
          Something went wrong!
        </Title>
        <Button variant="light" size="xs" onClick={toggle} aria-expanded={shown} aria-controls={detailsId}>
          {shown ? 'Hide Error' : 'Show Error'}
        </Button>
        {shown && (
          <Code block id={detailsId} c="red" w="100%">
            {message}
          </Code>
        )}
      </Stack>
    </Container>
  );
}
