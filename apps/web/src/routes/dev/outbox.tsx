import { Alert, Button, Container, Group, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconRefresh } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { z } from 'zod';
import { PageHeader } from '../../components/layout/PageHeader';
import { outboxQueryOptions } from '../../features/dev-outbox/api';
import { OutboxList } from '../../features/dev-outbox/components/OutboxList';
import { NotFoundError } from '../../lib/api-client';
import { useServices } from '../../lib/services';

/** Development tool: the e-mails and text messages the app would have sent (no SMTP/Twilio configured). */
export const Route = createFileRoute('/dev/outbox')({
  validateSearch: z.object({ to: z.string().optional().catch(undefined) }),
  component: DevOutboxPage,
});

function DevOutboxPage() {
  const { api } = useServices();
  const { to } = Route.useSearch();
  const navigate = Route.useNavigate();
  const [filter, setFilter] = useState(to ?? '');
  const [debounced] = useDebouncedValue(filter.trim(), 300);
  const outbox = useQuery(outboxQueryOptions(api, to));

  useEffect(() => {
    void navigate({ search: { to: debounced || undefined }, replace: true });
  }, [debounced, navigate]);

  return (
    <Container size="md" py="lg">
      <PageHeader
        title="Dev outbox"
        actions={
          <Button
            variant="light"
            leftSection={<IconRefresh size={16} aria-hidden="true" />}
            onClick={() => void outbox.refetch()}
            loading={outbox.isFetching}
          >
            Refresh
          </Button>
        }
      />
      <Group mb="md">
        <TextInput
          label="Recipient"
          placeholder="Filter by address or phone"
          value={filter}
          onChange={(event) => setFilter(event.currentTarget.value)}
          w={320}
        />
      </Group>
      {outbox.error ? (
        <Alert color="red" role="alert">
          {outbox.error instanceof NotFoundError
            ? 'The outbox exists only in development, when no e-mail or SMS provider is configured.'
            : outbox.error.message}
        </Alert>
      ) : (
        <OutboxList messages={outbox.data?.results ?? []} />
      )}
    </Container>
  );
}
