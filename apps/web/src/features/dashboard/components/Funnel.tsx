import { Group, Progress, Skeleton, Stack, Text } from '@mantine/core';
import type { VerificationReport } from '@veriform/contracts';
import { conversionText, formatCount, MUTED } from '../format';

/**
 * Codes sent → verified for the same filters. Both steps are text (label and count) with a decorative bar; the rate
 * follows as a sentence, "—" when no code was sent.
 */
export function Funnel({ funnel }: { funnel: VerificationReport['funnel'] }) {
  const verifiedShare =
    funnel.codesSent === 0 ? 0 : Math.min(100, (funnel.verified / funnel.codesSent) * 100);
  const steps = [
    {
      label: 'Codes sent',
      count: funnel.codesSent,
      value: funnel.codesSent === 0 ? 0 : 100,
      color: 'gray.6',
    },
    { label: 'Verified', count: funnel.verified, value: verifiedShare, color: 'green.6' },
  ];
  return (
    <Stack gap="md">
      <Stack component="ol" gap="sm" m={0} p={0} aria-label="Funnel" style={{ listStyle: 'none' }}>
        {steps.map((step) => (
          <li key={step.label}>
            <Group justify="space-between" gap="xs" mb={4}>
              <Text size="sm">{step.label}</Text>
              <Text size="sm" fw={600} style={{ fontVariantNumeric: 'tabular-nums' }}>
                {formatCount(step.count)}
              </Text>
            </Group>
            <Progress value={step.value} color={step.color} size="lg" radius="sm" aria-hidden="true" />
          </li>
        ))}
      </Stack>
      <Text size="sm">
        Conversion rate:{' '}
        <Text span fw={700}>
          {conversionText(funnel)}
        </Text>
        {funnel.codesSent === 0 && (
          <Text span c={MUTED}>
            {' '}
            (no codes were sent)
          </Text>
        )}
      </Text>
    </Stack>
  );
}

export function FunnelSkeleton() {
  return (
    <Stack gap="md">
      {[0, 1].map((i) => (
        <Stack key={i} gap={6}>
          <Skeleton height={14} width="50%" radius="sm" />
          <Skeleton height={12} radius="sm" />
        </Stack>
      ))}
      <Skeleton height={14} width="40%" radius="sm" />
    </Stack>
  );
}
