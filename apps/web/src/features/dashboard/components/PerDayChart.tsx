import { BarChart } from '@mantine/charts';
import { Table, Text, VisuallyHidden } from '@mantine/core';
import type { VerificationReport } from '@veriform/contracts';
import { useId } from 'react';
import { methodLabels } from '../../../lib/format';
import { formatCount, formatDay, formatLongDay, MUTED, plural } from '../format';
import { CHART_HEIGHT } from './ReportGrid';

export const chartName = 'Verifications per day by method';
export const chartTableName = 'Verifications per day';

const series = [
  { name: 'sms', label: methodLabels.sms, color: 'blue.6' },
  { name: 'email', label: methodLabels.email, color: 'teal.5' },
];

/** One sentence for everyone (and the chart's description): the range, the total and the busiest day. */
export function perDaySummary(perDay: VerificationReport['perDay']): string {
  const first = perDay[0];
  const last = perDay.at(-1);
  if (!first || !last) return 'No days in this range.';
  const total = perDay.reduce((sum, day) => sum + day.sms + day.email, 0);
  const range =
    first.date === last.date
      ? `on ${formatLongDay(first.date)}`
      : `from ${formatLongDay(first.date)} to ${formatLongDay(last.date)}`;
  if (total === 0) return `No verifications ${range}.`;
  const busiest = perDay.reduce((best, day) => (day.sms + day.email > best.sms + best.email ? day : best));
  return `${plural(total, 'verification', 'verifications')} ${range}; the busiest day was ${formatLongDay(
    busiest.date,
  )} with ${formatCount(busiest.sms + busiest.email)}.`;
}

/**
 * SMS and e-mail stacked per day (recharts through @mantine/charts; this module is only imported by the dashboard
 * route, so the chart code lives in that route's chunk). The drawing is one image with a name and a one-line summary;
 * the numbers are in a visually hidden table, which screen readers can walk cell by cell. The chart's own keyboard
 * layer is off: inside an image it would be a focus stop that announces nothing.
 */
export function PerDayChart({ perDay }: { perDay: VerificationReport['perDay'] }) {
  const summaryId = useId();
  const data = perDay.map((day) => ({ day: formatDay(day.date), sms: day.sms, email: day.email }));
  return (
    <>
      <div role="img" aria-label={chartName} aria-describedby={summaryId}>
        <BarChart
          h={CHART_HEIGHT}
          data={data}
          dataKey="day"
          type="stacked"
          series={series}
          withLegend
          legendProps={{ verticalAlign: 'bottom', height: 40 }}
          tickLine="y"
          gridAxis="x"
          yAxisProps={{ allowDecimals: false }}
          maxBarWidth={48}
          accessibilityLayer={false}
          valueFormatter={formatCount}
        />
      </div>
      <Text id={summaryId} size="sm" c={MUTED}>
        {perDaySummary(perDay)}
      </Text>
      <VisuallyHidden>
        <Table>
          <caption>{chartTableName}</caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Day</Table.Th>
              <Table.Th scope="col">{methodLabels.sms}</Table.Th>
              <Table.Th scope="col">{methodLabels.email}</Table.Th>
              <Table.Th scope="col">Total</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {perDay.map((day) => (
              <Table.Tr key={day.date}>
                <Table.Th scope="row">{formatLongDay(day.date)}</Table.Th>
                <Table.Td>{formatCount(day.sms)}</Table.Td>
                <Table.Td>{formatCount(day.email)}</Table.Td>
                <Table.Td>{formatCount(day.sms + day.email)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </VisuallyHidden>
    </>
  );
}
