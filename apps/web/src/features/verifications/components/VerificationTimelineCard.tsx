import { Alert, Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useId } from 'react';
import { TimelineLines } from '../../../components/TimelineLines';
import { errorDisplayText } from '../../../lib/error-text';
import { useServices } from '../../../lib/services';
import { verificationTimelineQueryOptions } from '../api';

function TimelineSkeleton() {
  return (
    <Stack gap="md" role="group" aria-busy="true" aria-label="Loading timeline">
      {[0, 1, 2, 3].map((key) => (
        <Group key={key} gap="sm" wrap="nowrap">
          <Skeleton height={22} circle />
          <Stack gap={4} style={{ flex: 1 }}>
            <Skeleton height={12} width="40%" radius="sm" />
            <Skeleton height={10} width="25%" radius="sm" />
          </Stack>
        </Group>
      ))}
    </Stack>
  );
}

/**
 * The verification's timeline (issue #18 item 6): page opened, consent shown, each code asked for, its delivery
 * reports, each code typed, verified. Loaded after the page's own data, so the detail never waits for it.
 */
export function VerificationTimelineCard({
  accountId,
  verificationId,
}: {
  accountId: number;
  verificationId: number;
}) {
  const { api } = useServices();
  const heading = useId();
  const { data, error, isPending, refetch, isFetching } = useQuery(
    verificationTimelineQueryOptions(api, accountId, verificationId),
  );
  let body: ReactNode;
  if (data) {
    body =
      data.events.length === 0 ? (
        <Text c="dimmed" size="sm">
          No timeline was recorded for this verification.
        </Text>
      ) : (
        <TimelineLines events={data.events} />
      );
  } else if (error) {
    body = (
      <Alert color="red" icon={<IconAlertCircle aria-hidden="true" />} role="alert">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{errorDisplayText(error)}</Text>
          <Button size="xs" variant="light" color="red" loading={isFetching} onClick={() => void refetch()}>
            Try again
          </Button>
        </Stack>
      </Alert>
    );
  } else if (isPending) {
    body = <TimelineSkeleton />;
  }
  return (
    <Paper withBorder radius="md" p="lg" component="section" aria-labelledby={heading}>
      <Title order={3} size="h4" mb="md" id={heading}>
        Timeline
      </Title>
      {body}
    </Paper>
  );
}
