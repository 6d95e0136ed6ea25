import { SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { carrierLineTypeLabels, type LookupSummary } from '@veriform/contracts';
import { RetryAlert } from '../../../components/errors/RetryAlert';
import { SectionCard } from '../../../components/layout/SectionCard';
import { useServices } from '../../../lib/services';
import { lookupSummaryParams, lookupSummaryQueryOptions, type ReportParams } from '../api';
import { formatCount, MUTED, plural } from '../format';
import { type RankedItem, RankedList } from './RankedList';

/** Whether the range holds no lookup at all (every kind off, or a quiet range): then the panel is not shown. */
export const noLookups = (summary: LookupSummary) =>
  summary.lineType.asked + summary.simSwap.asked + summary.reassigned.asked === 0;

const item = (key: string, label: string, count: number): RankedItem => ({ key, label, count });
const answered = (items: RankedItem[]) => items.filter((entry) => entry.count > 0);

/** One kind: how many were asked, how many got no answer, and the answers, largest first. */
function KindCounts({
  title,
  asked,
  failed,
  answers,
}: {
  title: string;
  asked: number;
  failed: number;
  answers: RankedItem[];
}) {
  return (
    <Stack gap="xs" component="section" aria-label={`${title} lookups`}>
      <Title order={3} size="h5">
        {title}
      </Title>
      <Text size="sm">
        {plural(asked, 'lookup', 'lookups')} asked
        {failed > 0 && (
          <Text span c={MUTED} inherit>
            {`, ${formatCount(failed)} without an answer`}
          </Text>
        )}
      </Text>
      <RankedList
        label={`${title} answers`}
        empty="No answers in this range."
        items={answered(answers).sort((x, y) => y.count - x.count)}
      />
    </Stack>
  );
}

/**
 * The dashboard's carrier lookups (issue #36 item 5): the live lookups asked in the report's dates and their answers,
 * per kind. Hidden while it loads and when the range holds none: most accounts never turn lookups on (they are billed),
 * and a panel of zeros would only say so; an owner finds them in Company Info.
 */
export function CarrierLookups({ accountId, params }: { accountId: number; params: ReportParams }) {
  const { api } = useServices();
  const { data, error, refetch, isFetching } = useQuery(
    lookupSummaryQueryOptions(api, accountId, lookupSummaryParams(params)),
  );
  if (!data && error)
    return (
      <RetryAlert
        title="The carrier lookups could not be counted"
        error={error}
        onRetry={refetch}
        retrying={isFetching}
      />
    );
  if (!data || noLookups(data)) return null;
  const { lineType, simSwap, reassigned } = data;
  return (
    <SectionCard title="Carrier lookups">
      <Text size="sm" c={MUTED}>
        Twilio lookups asked in these dates (each is billed by Twilio), whatever form or check asked them.
      </Text>
      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg">
        <KindCounts
          title="Line type"
          asked={lineType.asked}
          failed={lineType.failed}
          answers={lineType.byType.map((row) =>
            item(
              row.lineType,
              row.lineType === 'no_data' ? 'No data' : carrierLineTypeLabels[row.lineType],
              row.count,
            ),
          )}
        />
        <KindCounts
          title="SIM swap"
          asked={simSwap.asked}
          failed={simSwap.failed}
          answers={[
            item('within', 'Recent swap (flagged)', simSwap.withinWindow),
            item('outside', 'No recent swap', simSwap.outsideWindow),
            item('no-data', 'No data', simSwap.noData),
          ]}
        />
        <KindCounts
          title="Reassigned numbers"
          asked={reassigned.asked}
          failed={reassigned.failed}
          answers={[
            item('yes', 'Reassigned', reassigned.yes),
            item('no', 'Not reassigned', reassigned.no),
            item('no-data', 'No data (never read as not reassigned)', reassigned.noData),
          ]}
        />
      </SimpleGrid>
    </SectionCard>
  );
}
