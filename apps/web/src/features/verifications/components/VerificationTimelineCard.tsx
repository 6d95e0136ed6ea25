import { Alert, Button, Group, Paper, Skeleton, Stack, Text, Timeline, Title } from '@mantine/core';
import {
  IconAlertCircle,
  IconAlertTriangle,
  IconBrowser,
  IconCheck,
  IconChecks,
  IconFileText,
  IconMessage,
  IconSend,
  IconShieldCheck,
  IconX,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { deliveryReasonOf, type TimelineEvent, type VerificationMethod } from '@veriform/contracts';
import { type ReactNode, useId } from 'react';
import { errorDisplayText } from '../../../lib/error-text';
import { methodLabels } from '../../../lib/format';
import { useServices } from '../../../lib/services';
import { verificationTimelineQueryOptions } from '../api';

/** Each line's time to the second (codes are typed seconds apart), in the member's zone; the date when it changes. */
const timeFormat = new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' });
const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

type Look = { title: string; icon: ReactNode; color: string };

const ICON = { size: 14, 'aria-hidden': true } as const;

/** What each line says and how it looks; a failure says so in words too, never by its colour alone. */
function lookOf(event: TimelineEvent): Look {
  switch (event.kind) {
    case 'page_opened':
      return { title: 'Page opened', icon: <IconBrowser {...ICON} />, color: 'gray' };
    case 'consent_shown':
      return { title: 'Consent text shown', icon: <IconFileText {...ICON} />, color: 'gray' };
    case 'code_requested':
      return { title: 'Code requested', icon: <IconSend {...ICON} />, color: 'blue' };
    case 'code_sent':
      return { title: 'Code sent', icon: <IconMessage {...ICON} />, color: 'blue' };
    case 'code_delivered':
      return { title: 'Code delivered', icon: <IconChecks {...ICON} />, color: 'teal' };
    case 'code_undelivered':
      return { title: 'Code not delivered', icon: <IconAlertTriangle {...ICON} />, color: 'red' };
    case 'code_failed':
      return { title: 'Code could not be sent', icon: <IconAlertTriangle {...ICON} />, color: 'red' };
    case 'code_entered':
      return event.correct
        ? { title: 'Code entered — right', icon: <IconCheck {...ICON} />, color: 'teal' }
        : { title: 'Code entered — wrong', icon: <IconX {...ICON} />, color: 'orange' };
    case 'verified':
      return { title: 'Verified', icon: <IconShieldCheck {...ICON} />, color: 'green' };
  }
}

/**
 * Each code's channel, from its `code_requested` line (whose detail is the channel's label): a failure's error code
 * reads as Twilio's or as SMTP's by it.
 */
function channelsOf(events: TimelineEvent[]): Map<string, VerificationMethod> {
  const byLabel = new Map(Object.entries(methodLabels).map(([method, label]) => [label, method]));
  const channels = new Map<string, VerificationMethod>();
  for (const event of events) {
    const method = event.detail === null ? undefined : byLabel.get(event.detail);
    if (event.kind === 'code_requested' && event.attemptId && (method === 'sms' || method === 'email')) {
      channels.set(event.attemptId, method);
    }
  }
  return channels;
}

/** The facts under a line's title: the channel, the version shown, the message id, a failure's reason. */
function detailsOf(event: TimelineEvent, channel: VerificationMethod | undefined): string[] {
  switch (event.kind) {
    case 'consent_shown':
      return event.detail ? [`Version ${event.detail.replace(/^v/, '')}`] : [];
    case 'code_requested':
      return event.detail ? [`By ${event.detail}`] : [];
    case 'code_sent':
      return event.detail ? [`Message ID ${event.detail}`] : [];
    case 'code_undelivered':
    case 'code_failed': {
      if (event.errorCode === null) return [];
      const reason = deliveryReasonOf(
        channel ?? (/^\d{3}$/.test(event.errorCode) ? 'email' : 'sms'),
        event.errorCode,
      );
      return [reason ? `${reason.reason} (error ${event.errorCode})` : `Error ${event.errorCode}`];
    }
    default:
      return [];
  }
}

function TimelineSkeleton() {
  return (
    <Stack gap="md" aria-busy="true" aria-label="Loading timeline">
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

export function TimelineLines({ events }: { events: TimelineEvent[] }) {
  const channels = channelsOf(events);
  // Several codes: each line says which one it belongs to ("Code 2"), in the order they were asked for.
  const codeNumbers = new Map<string, number>();
  for (const event of events) {
    if (event.kind === 'code_requested' && event.attemptId && !codeNumbers.has(event.attemptId)) {
      codeNumbers.set(event.attemptId, codeNumbers.size + 1);
    }
  }
  const numbered = codeNumbers.size > 1;
  return (
    <Timeline bulletSize={24} lineWidth={2} role="list" aria-label="Timeline">
      {events.map((event, index) => {
        const look = lookOf(event);
        const date = dateFormat.format(new Date(event.at));
        const previous = events[index - 1];
        const newDay = !previous || dateFormat.format(new Date(previous.at)) !== date;
        const codeNumber = event.attemptId ? codeNumbers.get(event.attemptId) : undefined;
        const details = [
          ...(numbered && codeNumber !== undefined && event.kind !== 'verified'
            ? [`Code ${codeNumber}`]
            : []),
          ...detailsOf(event, event.attemptId ? channels.get(event.attemptId) : undefined),
        ];
        return (
          <Timeline.Item
            // Lines have no id of their own; their order never changes.
            // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list
            key={index}
            role="listitem"
            bullet={look.icon}
            color={look.color}
            title={look.title}
          >
            <Text size="xs" c="dimmed">
              <time dateTime={event.at}>
                {newDay ? `${date}, ` : ''}
                {timeFormat.format(new Date(event.at))}
              </time>
            </Text>
            {details.map((detail) => (
              <Text key={detail} size="sm" style={{ overflowWrap: 'anywhere' }}>
                {detail}
              </Text>
            ))}
          </Timeline.Item>
        );
      })}
    </Timeline>
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
