import { Group, Progress, SegmentedControl, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { FunnelFailureReason, FunnelSteps, ReportFunnel } from '@veriform/contracts';
import { useState } from 'react';
import { conversionText, formatCount, formatRate, MUTED } from '../format';

/** The channel switch: all codes, or one channel's (the report's byChannel line). */
const channelOptions = [
  { value: 'all', label: 'All' },
  { value: 'sms', label: 'SMS' },
  { value: 'email', label: 'E-mail' },
] as const;
type ChannelChoice = (typeof channelOptions)[number]['value'];

const channelLabel = { sms: 'SMS', email: 'E-mail' } as const;

/** Why a page-view count is missing, as the step says it. */
const pageOpenedNote: Record<NonNullable<ReportFunnel['pageOpenedUnavailable']>, string> = {
  channel: 'Not counted by channel',
  source: 'API codes have no page',
  search: 'Not counted for a search',
};

type Step = { label: string; count: number | null; note?: string; color: string };

function stepsOf(steps: FunnelSteps, pageOpened: number | null, pageNote: string | undefined): Step[] {
  return [
    { label: 'Page opened', count: pageOpened, note: pageNote, color: 'gray.5' },
    { label: 'Code requested', count: steps.codeRequested, color: 'blue.4' },
    { label: 'Delivered', count: steps.delivered, color: 'blue.6' },
    { label: 'Code entered', count: steps.codeEntered, color: 'indigo.6' },
    { label: 'Verified', count: steps.verified, color: 'green.7' },
  ];
}

/** "62% of the step before", from the counts shown (never a rounded server figure); nothing to compare: no text. */
function rateText(count: number | null, previous: number | null): string | null {
  if (count === null || previous === null || previous === 0) return null;
  return `${formatRate(count / previous)} of the step before`;
}

/**
 * Page opened → code requested → delivered → code entered → verified, over the range's codes (the server counts the
 * same rows as the attempts export). Every step is text — label, count, the share of the step before — in an ordered
 * list; the bars (width against the widest step) only repeat it, hidden from screen readers. The switch shows one
 * channel's line; page views know no channel, which the first step then says. The top failure reasons follow, in
 * words with what to do.
 */
export function Funnel({ funnel }: { funnel: ReportFunnel }) {
  const [channel, setChannel] = useState<ChannelChoice>('all');
  const line = channel === 'all' ? funnel : funnel.byChannel.find((c) => c.channel === channel);
  const steps = stepsOf(
    line ?? { codeRequested: 0, delivered: 0, codeEntered: 0, verified: 0 },
    channel === 'all' ? funnel.pageOpened : null,
    channel === 'all'
      ? funnel.pageOpenedUnavailable
        ? pageOpenedNote[funnel.pageOpenedUnavailable]
        : undefined
      : pageOpenedNote.channel,
  );
  const widest = Math.max(0, ...steps.map((s) => s.count ?? 0));
  const failures = funnel.topFailureReasons.filter((f) => channel === 'all' || f.channel === channel);
  const requested = steps[1]?.count ?? 0;
  return (
    <Stack gap="md">
      <SegmentedControl
        aria-label="Channel"
        size="xs"
        value={channel}
        onChange={(value) => setChannel(channelOptions.find((o) => o.value === value)?.value ?? 'all')}
        data={channelOptions.map((o) => ({ value: o.value, label: o.label }))}
      />
      <Stack component="ol" gap="sm" m={0} p={0} aria-label="Funnel steps" style={{ listStyle: 'none' }}>
        {steps.map((step, index) => {
          const rate = index === 0 ? null : rateText(step.count, steps[index - 1]?.count ?? null);
          return (
            <li key={step.label}>
              <Group justify="space-between" gap="xs" mb={4} wrap="nowrap">
                <Text size="sm">{step.label}</Text>
                <Text size="sm" fw={600} style={{ fontVariantNumeric: 'tabular-nums' }}>
                  {step.count === null ? '—' : formatCount(step.count)}
                </Text>
              </Group>
              <Progress
                value={step.count === null || widest === 0 ? 0 : Math.min(100, (step.count / widest) * 100)}
                color={step.color}
                size="lg"
                radius="sm"
                aria-hidden="true"
              />
              {(step.note || rate) && (
                <Text size="xs" c={MUTED} mt={2}>
                  {step.count === null ? step.note : rate}
                </Text>
              )}
            </li>
          );
        })}
      </Stack>
      <Text size="sm">
        Conversion rate:{' '}
        <Text span fw={700}>
          {conversionText({ codesSent: requested, verified: line?.verified ?? 0 })}
        </Text>
        {requested === 0 && (
          <Text span c={MUTED}>
            {' '}
            (no codes were sent)
          </Text>
        )}
      </Text>
      <FailureReasons failures={failures} />
    </Stack>
  );
}

function FailureReasons({ failures }: { failures: FunnelFailureReason[] }) {
  return (
    <Stack gap="xs">
      <Title order={3} size="h6" id="funnel-failures">
        Top failure reasons
      </Title>
      {failures.length === 0 ? (
        <Text size="sm" c={MUTED}>
          No failed deliveries in this range.
        </Text>
      ) : (
        <Stack
          component="ol"
          gap="xs"
          m={0}
          p={0}
          aria-labelledby="funnel-failures"
          style={{ listStyle: 'none' }}
        >
          {failures.map((f) => (
            <li key={`${f.channel}-${f.errorCode ?? ''}`}>
              <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
                <Text size="sm" fw={500}>
                  {f.reason?.reason ??
                    (f.errorCode
                      ? 'Not delivered (no description for this code).'
                      : 'Not delivered (no error code given).')}
                </Text>
                <Text size="sm" fw={600} style={{ fontVariantNumeric: 'tabular-nums' }}>
                  {formatCount(f.count)}
                </Text>
              </Group>
              <Text size="xs" c={MUTED} mt={2}>
                {[channelLabel[f.channel], f.errorCode && `error ${f.errorCode}`, f.reason?.nextStep]
                  .filter(Boolean)
                  .join(' · ')}
              </Text>
            </li>
          ))}
        </Stack>
      )}
    </Stack>
  );
}

export function FunnelSkeleton() {
  return (
    <Stack gap="md">
      <Skeleton height={26} radius="sm" />
      {[0, 1, 2, 3, 4].map((i) => (
        <Stack key={i} gap={6}>
          <Skeleton height={14} width="50%" radius="sm" />
          <Skeleton height={12} radius="sm" />
        </Stack>
      ))}
      <Skeleton height={14} width="40%" radius="sm" />
    </Stack>
  );
}
