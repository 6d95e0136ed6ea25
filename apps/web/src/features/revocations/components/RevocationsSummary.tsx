import { Anchor, Group, Paper, SimpleGrid, Skeleton, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { RevocationCounts } from '@veriform/contracts';
import { AnchorLink } from '../../../components/links';
import { useServices } from '../../../lib/services';
import { revocationCountsQueryOptions, revocationSearchDefaults } from '../api';

const rows: { key: keyof RevocationCounts; label: string }[] = [
  { key: 'overdue', label: 'Overdue' },
  { key: 'open', label: 'Open' },
  { key: 'possible', label: 'Awaiting decision' },
];

/**
 * The dashboard's revocations card (issue #35 item 3): how many revocations of consent wait on the customer, overdue
 * first and in red when any, linking to Activity Log › Revocations filtered to what needs doing. Shown to members
 * who may read revocations; the route composes it.
 */
export function RevocationsSummary({ accountId }: { accountId: number }) {
  const { api } = useServices();
  const { data, error, refetch, isFetching } = useQuery(revocationCountsQueryOptions(api, accountId));
  const status =
    data && data.overdue > 0 ? 'overdue' : data && data.possible > 0 && data.open === 0 ? 'possible' : 'open';
  return (
    <Paper
      withBorder
      radius="md"
      p="md"
      mb="md"
      component="section"
      aria-labelledby="revocations-summary-title"
    >
      <Group justify="space-between" align="baseline" mb="xs" wrap="wrap" gap="xs">
        <Title order={2} size="h5" id="revocations-summary-title">
          Revocations of consent
        </Title>
        <AnchorLink to="/activity-log/revocations" search={{ ...revocationSearchDefaults, status }} size="sm">
          Review revocations
        </AnchorLink>
      </Group>
      {error && !data ? (
        <Text size="sm" c="red.9" role="alert">
          The counts could not be loaded.{' '}
          <Anchor
            component="button"
            type="button"
            size="sm"
            onClick={() => void refetch()}
            disabled={isFetching}
          >
            Try again
          </Anchor>
        </Text>
      ) : (
        <SimpleGrid component="dl" cols={3} spacing="md" m={0} aria-busy={data ? undefined : true}>
          {rows.map(({ key, label }) => (
            <div key={key}>
              <Text component="dt" size="xs" c="gray.7" tt="uppercase" fw={600}>
                {label}
              </Text>
              <Text
                component="dd"
                m={0}
                mt={4}
                fw={700}
                fz={24}
                lh={1.2}
                c={key === 'overdue' && data && data.overdue > 0 ? 'red.9' : undefined}
              >
                {data ? data[key].toLocaleString('en-US') : <Skeleton height={28} width={48} radius="sm" />}
              </Text>
            </div>
          ))}
        </SimpleGrid>
      )}
    </Paper>
  );
}
