import { Alert, Anchor, Group, SimpleGrid, Skeleton, Stack, Table, Text } from '@mantine/core';
import { IconAlertCircle, IconShieldCheck } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { Verification, VerifyForm, VerifyFormStats } from '@veriform/contracts';
import type { ReactNode } from 'react';
import { EmptyState } from '../../../components/layout/EmptyState';
import { SectionCard } from '../../../components/layout/SectionCard';
import { TestBadge } from '../../../components/TestBadge';
import { errorDisplayText } from '../../../lib/error-text';
import { formatDateTime, formatPhoneForReading, methodLabels } from '../../../lib/format';
import { useServices } from '../../../lib/services';
import { verificationListQueryOptions } from '../../verifications/api';
import { verifyFormStatsQueryOptions } from '../api';

/** How many verifications the form page lists; the activity log has the rest. */
export const RECENT_VERIFICATIONS = 5;

const percent = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 0 });
const integer = new Intl.NumberFormat();

/** Verified ÷ codes sent over the same 30 days; no codes sent means there is nothing to divide. */
export function conversionText(stats: VerifyFormStats): string {
  if (stats.codesSentLast30Days === 0) return '—';
  return percent.format(stats.verificationsLast30Days / stats.codesSentLast30Days);
}

function LoadError({ error }: { error: unknown }) {
  return (
    <Alert color="red" icon={<IconAlertCircle aria-hidden="true" />} role="alert">
      {errorDisplayText(error)}
    </Alert>
  );
}

const statLabels = [
  'Verifications',
  'Last 30 days',
  'Codes sent (30 days)',
  'Conversion (30 days)',
  'Last verified',
] as const;

function statValues(stats: VerifyFormStats): string[] {
  return [
    integer.format(stats.verifications),
    integer.format(stats.verificationsLast30Days),
    integer.format(stats.codesSentLast30Days),
    conversionText(stats),
    stats.lastVerifiedAt ? formatDateTime(stats.lastVerifiedAt) : 'Never',
  ];
}

/** The form's counts; the page shows this only with canViewReports, as the endpoint asks. */
export function StatsCard({ form }: { form: VerifyForm }) {
  const { api } = useServices();
  const { data: stats, error, isPending } = useQuery(verifyFormStatsQueryOptions(api, form.account, form.id));
  const values = stats ? statValues(stats) : null;
  return (
    <SectionCard title="Statistics">
      {error && !stats ? (
        <LoadError error={error} />
      ) : (
        <SimpleGrid
          component="dl"
          cols={{ base: 2, sm: 5 }}
          spacing="md"
          m={0}
          aria-busy={isPending || undefined}
        >
          {statLabels.map((label, index) => (
            <Stack key={label} gap={2}>
              <Text component="dt" size="xs" c="dimmed" tt="uppercase" fw={600}>
                {label}
              </Text>
              <Text component="dd" m={0} fw={600} size={index === 4 ? 'sm' : 'xl'}>
                {values ? values[index] : <Skeleton height={24} width="70%" radius="sm" />}
              </Text>
            </Stack>
          ))}
        </SimpleGrid>
      )}
    </SectionCard>
  );
}

function VerificationRow({ verification }: { verification: Verification }) {
  return (
    <Table.Tr>
      <Table.Td>
        <Group gap="xs" wrap="nowrap">
          <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
            {formatPhoneForReading(verification.cellPhone)}
          </Text>
          {verification.isTest && <TestBadge />}
        </Group>
      </Table.Td>
      <Table.Td style={{ overflowWrap: 'anywhere' }}>
        {verification.externalRefId || (
          <Text span size="sm" c="dimmed">
            —
          </Text>
        )}
      </Table.Td>
      <Table.Td>{methodLabels[verification.verificationMethod]}</Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        <time dateTime={verification.created}>{formatDateTime(verification.created)}</time>
      </Table.Td>
    </Table.Tr>
  );
}

const columns = ['Phone', 'External ref', 'Method', 'Created'];

/**
 * The form's newest verifications (the activity log's list filtered to the form); the page shows this only with
 * canSearchData.
 */
export function RecentVerificationsCard({ form }: { form: VerifyForm }) {
  const { api } = useServices();
  const { data, error, isPending } = useQuery(
    verificationListQueryOptions(api, form.account, {
      verifyFormId__in: [form.id],
      pageNumber: 1,
      pageSize: RECENT_VERIFICATIONS,
    }),
  );
  // A plain link: the activity log's typed search params come with issue #6.
  const activityLogHref = `/activity-log/?verifyFormId__in=${form.id}`;

  let body: ReactNode;
  if (isPending) {
    body = (
      <Stack gap="xs" role="group" aria-busy="true" aria-label="Loading verifications">
        {Array.from({ length: 3 }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders without identity
          <Skeleton key={i} height={28} radius="sm" />
        ))}
      </Stack>
    );
  } else if (!data) {
    body = <LoadError error={error} />;
  } else if (data.results.length === 0) {
    body = (
      <EmptyState icon={<IconShieldCheck />} title="No verifications yet">
        Share the public link or the QR code above. Each person who confirms a phone number with this form
        shows up here. To try it yourself without sending a message, add a test number under Settings, Company
        Info.
      </EmptyState>
    );
  } else {
    body = (
      <Table.ScrollContainer minWidth={520}>
        <Table aria-label="Recent verifications" verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              {columns.map((column) => (
                <Table.Th key={column} scope="col">
                  {column}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data.results.map((verification) => (
              <VerificationRow key={verification.id} verification={verification} />
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );
  }

  return (
    <SectionCard title="Recent verifications">
      {body}
      <Group justify="flex-end">
        <Anchor href={activityLogHref} size="sm">
          View all in the activity log
        </Anchor>
      </Group>
    </SectionCard>
  );
}
