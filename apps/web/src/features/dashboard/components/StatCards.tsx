import { Paper, SimpleGrid, Skeleton, Text } from '@mantine/core';
import type { VerificationReport } from '@veriform/contracts';
import { conversionText, formatCount, MUTED } from '../format';

export const statLabels = ['Verifications', 'By SMS', 'By e-mail', 'Codes sent', 'Conversion rate'] as const;

function statValues(report: VerificationReport): string[] {
  return [
    formatCount(report.totals.verifications),
    formatCount(report.totals.sms),
    formatCount(report.totals.email),
    formatCount(report.funnel.codesSent),
    conversionText(report.funnel),
  ];
}

/**
 * The report's headline numbers as a description list (each label names its value for screen readers). Without a
 * report the same boxes hold skeletons, so nothing moves when the numbers arrive.
 */
export function StatCards({ report }: { report: VerificationReport | undefined }) {
  const values = report ? statValues(report) : null;
  return (
    <section aria-label="Totals" aria-busy={values ? undefined : true}>
      <SimpleGrid component="dl" cols={{ base: 2, sm: 3, lg: 5 }} spacing="md" m={0}>
        {statLabels.map((label, index) => (
          <Paper key={label} withBorder radius="md" p="md">
            <Text component="dt" size="xs" c={MUTED} tt="uppercase" fw={600}>
              {label}
            </Text>
            <Text component="dd" m={0} mt={4} fw={700} fz={28} lh={1.2}>
              {values ? values[index] : <Skeleton height={34} width="60%" radius="sm" />}
            </Text>
          </Paper>
        ))}
      </SimpleGrid>
    </section>
  );
}
